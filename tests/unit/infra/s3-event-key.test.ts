import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/errors.ts';
import type { PipelineInput } from '#shared/pipeline/contract.ts';
import { lambdaIngestService } from '../../../functions/ask/lambda-ingest.ts';
import { routeObjectEvent } from '../../../functions/ingest/route-event.ts';
import { decodeS3EventKey } from '../../../functions/lib/s3-event-key.ts';
import { encodeS3EventKey, objectCreatedEvent, objectDeletedEvent } from '../../integration/aws/s3-events.ts';

const KEY = 'uploads/季度 报告 (v2)+final.md';
/** How S3 writes that key into an event. */
const ENCODED = 'uploads/%E5%AD%A3%E5%BA%A6+%E6%8A%A5%E5%91%8A+%28v2%29%2Bfinal.md';

describe('decodeS3EventKey', () => {
  it('decodes spaces written as + and UTF-8 escapes, keeping an encoded + a plus', () => {
    expect(encodeS3EventKey(KEY)).toBe(ENCODED);
    expect(decodeS3EventKey(ENCODED)).toBe(KEY);
    expect(decodeS3EventKey('uploads/plain-key.md')).toBe('uploads/plain-key.md');
  });

  it('refuses a key that is not URL-encoded', () => {
    expect(() => decodeS3EventKey('uploads/100%.md')).toThrow(ValidationError);
  });
});

describe('the ingest adapter', () => {
  it('starts the ingestion of the decoded key for an Object Created event', async () => {
    const started: PipelineInput[] = [];
    const result = await routeObjectEvent(objectCreatedEvent(KEY, '0062E9A4B1C3D2E1F0', 'v1'), {
      start: async (input) => {
        started.push(input);
        return {};
      },
      remove: async () => {
        throw new Error('not a removal');
      },
    });
    expect(started).toEqual([{ key: KEY, sequencer: '0062E9A4B1C3D2E1F0' }]);
    expect(result).toMatchObject({ action: 'ingest', input: { key: KEY } });
  });

  it('removes the decoded key for an Object Deleted event', async () => {
    const removed: string[] = [];
    const result = await routeObjectEvent(objectDeletedEvent(KEY, '0062E9A4B1C3D2E1F1'), {
      start: async () => ({}),
      remove: async (object) => {
        removed.push(object.key);
        return { documentId: undefined, removed: false } as never;
      },
    });
    expect(removed).toEqual([KEY]);
    expect(result).toMatchObject({ action: 'remove', key: KEY });
  });

  it('leaves a direct StartExecution input as it is (keys there are not encoded)', async () => {
    const started: PipelineInput[] = [];
    await routeObjectEvent(
      { key: 'uploads/a+b.md' },
      {
        start: async (input) => {
          started.push(input);
          return {};
        },
        remove: async () => ({}) as never,
      },
    );
    expect(started).toEqual([{ key: 'uploads/a+b.md' }]);
  });

  it('decodes the key of an event handed to the ask function', async () => {
    const started: PipelineInput[] = [];
    const service = lambdaIngestService({} as never, async (input) => {
      started.push(input);
      return {};
    });
    await service.handleObjectEvent(objectCreatedEvent(KEY, '0062E9A4B1C3D2E1F2'));
    expect(started).toEqual([{ key: KEY, sequencer: '0062E9A4B1C3D2E1F2' }]);
  });
});
