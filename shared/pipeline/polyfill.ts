/**
 * `Promise.withResolvers` (ES2024, Node 22) for Node 20: aws-local-stepfunctions 3 calls it for every
 * Task. Importing this module installs it once; it is a no-op where the runtime has it.
 */
type WithResolvers = <T>() => {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
};

const PromiseWith = Promise as unknown as { withResolvers?: WithResolvers };

if (typeof PromiseWith.withResolvers !== 'function') {
  PromiseWith.withResolvers = <T>() => {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
