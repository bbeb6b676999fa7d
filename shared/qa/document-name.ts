/**
 * A document's name as an answer quotes it, in the answer's language: in Chinese title marks
 * (《计划》), in an English answer in quotation marks ("plan.md"), never 《》 in English.
 *
 * @example quotedName('plan.md', false) // '"plan.md"'
 */
export function quotedName(name: string, zh: boolean): string {
  return zh ? `《${name}》` : `"${name}"`;
}
