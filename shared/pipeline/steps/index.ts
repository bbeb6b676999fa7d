export { activate } from './activate.ts';
export { describeImages, IMAGES_PER_INVOCATION } from './describe-image.ts';
export { markFailed } from './mark-failed.ts';
export { parse, versionPrefix } from './parse.ts';
export { register } from './register.ts';
export { summarize } from './summarize.ts';
export { topics } from './topics.ts';
