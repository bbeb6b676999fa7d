declare module 'asl-validator' {
  interface ValidationResult {
    isValid: boolean;
    errors: unknown[];
    errorsText(separator?: string): string;
  }
  function aslValidator(
    definition: unknown,
    options?: { checkPaths?: boolean; checkArn?: boolean },
  ): ValidationResult;
  export default aslValidator;
}
