import { DetectDocumentTextCommand, TextractClient } from '@aws-sdk/client-textract';
import { ProviderError, reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import type { OcrEngine, OcrReading } from '#shared/llm/types.ts';
import { readImageInfo } from '#shared/parse/image-info.ts';
import { ocrInput } from './raster.ts';

/** DetectDocumentText (synchronous): PNG or JPEG bytes up to 10 MB, at most 10,000 pixels a side. */
const MAX_BYTES = 10 * 1024 * 1024;
const MAX_SIDE = 10_000;
const FORMATS = new Set(['image/png', 'image/jpeg']);

export interface TextractOptions {
  region: string;
  /** A Textract-compatible endpoint (tests point the real client at a local fake). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * OCR with Amazon Textract DetectDocumentText: the LINE blocks, in reading order, one per line, each
 * with its confidence (Textract reads turned pages itself). TIFF, WebP and GIF scans are sent as PNG;
 * images outside Textract's limits (format, bytes, pixels) are refused with the reason, before any
 * call.
 *
 * @example const { text } = await new TextractOcr({ region: 'us-east-1' }).recognize(bytes, 'image/png');
 */
export class TextractOcr implements OcrEngine {
  readonly name = 'textract';
  private readonly client: TextractClient;

  constructor(options: TextractOptions) {
    this.client = new TextractClient({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  }

  async recognize(original: Uint8Array, mime: string): Promise<OcrReading> {
    const { bytes: image, mime: given } = await ocrInput(original, mime);
    const info = readImageInfo(image);
    const type = info?.mime ?? given;
    if (!FORMATS.has(type))
      throw new UnsupportedDocumentError(`Textract reads PNG and JPEG only, not ${type}`);
    if (image.length > MAX_BYTES) {
      throw new UnsupportedDocumentError(`the image is ${image.length} bytes, above Textract's 10 MB limit`);
    }
    if ((info?.width ?? 0) > MAX_SIDE || (info?.height ?? 0) > MAX_SIDE) {
      throw new UnsupportedDocumentError(
        `the image is ${info?.width}x${info?.height} pixels, above Textract's ${MAX_SIDE}-pixel limit`,
      );
    }
    let blocks: { BlockType?: string; Text?: string; Confidence?: number }[];
    try {
      const output = await this.client.send(new DetectDocumentTextCommand({ Document: { Bytes: image } }));
      blocks = output.Blocks ?? [];
    } catch (error) {
      throw new ProviderError(`Textract DetectDocumentText failed: ${reasonOf(error)}`, { cause: error });
    }
    const lines = blocks.filter((block) => block.BlockType === 'LINE' && block.Text);
    const confidences = lines.map((line) => line.Confidence ?? 0);
    return {
      text: lines.map((line) => line.Text).join('\n'),
      blocks: lines.map((line) => ({ text: line.Text ?? '', confidence: (line.Confidence ?? 0) / 100 })),
      ...(confidences.length > 0
        ? { confidence: confidences.reduce((a, b) => a + b, 0) / confidences.length / 100 }
        : {}),
    };
  }

  /** Releases the client's sockets. */
  async close(): Promise<void> {
    this.client.destroy();
  }
}
