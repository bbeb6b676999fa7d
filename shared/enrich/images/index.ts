export { describeImageNode, type ImageOutcome } from './describe-image.ts';
export { isVisionFormat, unreadableReason } from './image-kinds.ts';
