export { contentTypeOf } from './content-type.ts';
export { createBlobStore } from './create.ts';
export { assertSafeKey, assertSafePrefix, MAX_KEY_BYTES } from './keys.ts';
export { LocalBlobStore } from './local.ts';
export type { BlobInfo, BlobStore } from './types.ts';
