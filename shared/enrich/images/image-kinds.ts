/** Vector formats (Office's EMF/WMF, SVG) that nothing here can rasterize: skipped with a reason. */
const VECTOR = new Set(['image/emf', 'image/x-emf', 'image/wmf', 'image/x-wmf', 'image/svg+xml']);
/** What chat models accept as image input (Bedrock Converse and OpenAI vision alike). */
const VISION = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Why an image of this type is not read at all, or undefined when it can be. */
export function unreadableReason(mime: string, filename: string): string | undefined {
  if (VECTOR.has(mime) || /\.(emf|wmf|svg)$/i.test(filename)) {
    return `${filename}: vector images (EMF, WMF, SVG) are kept without reading their text (no renderer for them)`;
  }
  return undefined;
}

/** Whether a chat model can be shown an image of this type. */
export function isVisionFormat(mime: string): boolean {
  return VISION.has(mime);
}
