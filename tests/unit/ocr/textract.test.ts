import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, UnsupportedDocumentError } from '#shared/errors.ts';
import { TextractOcr } from '#shared/llm/ocr/textract.ts';
import { textPng } from '../../helpers/text-png.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: { Document?: { Bytes?: string } };
}

/** A local server speaking Textract's JSON 1.1 protocol for DetectDocumentText. */
function textractFake(respond: (body: Received['body']) => { status: number; json: unknown }) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as Received['body'];
      received.push({ headers: req.headers, body });
      const { status, json } = respond(body);
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(json));
    });
  });
  return { server, received };
}

describe('TextractOcr', () => {
  let fail = false;
  const fake = textractFake(() =>
    fail
      ? { status: 400, json: { __type: 'UnsupportedDocumentException', message: 'bad document' } }
      : {
          status: 200,
          json: {
            DocumentMetadata: { Pages: 1 },
            Blocks: [
              { BlockType: 'PAGE', Id: 'p' },
              { BlockType: 'LINE', Id: 'l1', Text: '季度收入 Revenue', Confidence: 99 },
              { BlockType: 'WORD', Id: 'w1', Text: 'Revenue', Confidence: 99 },
              { BlockType: 'LINE', Id: 'l2', Text: '12.5%', Confidence: 95 },
            ],
          },
        },
  );
  let ocr: TextractOcr;
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const { port } = fake.server.address() as AddressInfo;
    ocr = new TextractOcr({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
  });
  afterAll(async () => {
    await ocr.close();
    await new Promise((resolve) => fake.server.close(resolve));
  });

  it('sends the image bytes to DetectDocumentText and joins the LINE blocks', async () => {
    fail = false;
    const png = textPng('HELLO');
    const result = await ocr.recognize(png, 'image/png');
    expect(result.text).toBe('季度收入 Revenue\n12.5%');
    expect(result.confidence).toBeCloseTo(0.97);
    const last = fake.received.at(-1);
    expect(last?.headers['x-amz-target']).toBe('Textract.DetectDocumentText');
    expect(Buffer.from(last?.body.Document?.Bytes ?? '', 'base64').equals(Buffer.from(png))).toBe(true);
  });

  it('refuses formats it cannot send or convert (BMP) before calling the service', async () => {
    const calls = fake.received.length;
    const bmp = new Uint8Array(54);
    bmp.set(Buffer.from('BM'), 0);
    new DataView(bmp.buffer).setUint32(14, 40, true);
    await expect(ocr.recognize(bmp, 'image/bmp')).rejects.toThrow(UnsupportedDocumentError);
    expect(fake.received.length).toBe(calls);
  });

  it('sends a TIFF scan as PNG', async () => {
    fail = false;
    const { default: sharp } = await import('sharp');
    const tiff = new Uint8Array(await sharp(textPng('HELLO')).tiff().toBuffer());
    const result = await ocr.recognize(tiff, 'image/tiff');
    expect(result.blocks).toEqual([
      { text: '季度收入 Revenue', confidence: expect.any(Number) },
      { text: '12.5%', confidence: expect.any(Number) },
    ]);
    const sent = Buffer.from(fake.received.at(-1)?.body.Document?.Bytes ?? '', 'base64');
    expect(sent.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('refuses images above 10 MB before calling the service', async () => {
    const calls = fake.received.length;
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(textPng('A'));
    await expect(ocr.recognize(big, 'image/png')).rejects.toThrow(/10 MB/);
    expect(fake.received.length).toBe(calls);
  });

  it('reports a service error as a provider error naming Textract', async () => {
    fail = true;
    await expect(ocr.recognize(textPng('HELLO'), 'image/png')).rejects.toThrow(ProviderError);
    await expect(ocr.recognize(textPng('HELLO'), 'image/png')).rejects.toThrow(/Textract.*bad document/);
  });
});
