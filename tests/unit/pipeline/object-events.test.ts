import { describe, expect, it } from 'vitest';
import { localSequencer, normalizeSequencer } from '#shared/documents/sequencer.ts';
import { objectEventAction } from '#shared/pipeline/object-events.ts';

const event = (type: string, object: Record<string, unknown>) => ({
  version: '0',
  'detail-type': type,
  source: 'aws.s3',
  detail: { version: '0', bucket: { name: 'docs' }, object, reason: 'PutObject' },
});

describe('objectEventAction', () => {
  it('starts an ingestion with the key and sequencer of an Object Created event', () => {
    const action = objectEventAction(
      event('Object Created', { key: 'a/b.md', size: 5, sequencer: '617f08299329d189' }),
    );
    expect(action).toEqual({ kind: 'ingest', input: { key: 'a/b.md', sequencer: '617f08299329d189' } });
  });

  it('removes the document of an Object Deleted event', () => {
    const action = objectEventAction(
      event('Object Deleted', { key: 'a/b.md', sequencer: '617f0837b476e463' }),
    );
    expect(action).toEqual({ kind: 'remove', key: 'a/b.md', sequencer: '617f0837b476e463' });
  });

  it('names the bad field of a malformed event', () => {
    expect(() => objectEventAction(event('Object Created', { key: '' }))).toThrow(/detail\.object\.key/);
    expect(() => objectEventAction(event('Object Restored', { key: 'a' }))).toThrow(/detail-type/);
  });
});

describe('sequencers', () => {
  it('orders S3 sequencers of different lengths as S3 does, by left-padding', () => {
    expect(normalizeSequencer('62E9A4B1C30001') < normalizeSequencer('0062E9A4B1C30002')).toBe(true);
    expect(normalizeSequencer('FF') > normalizeSequencer('0000000000EE')).toBe(true);
  });

  it('gives strictly increasing local sequencers, even within one millisecond', () => {
    const issued = Array.from({ length: 1000 }, () => localSequencer());
    expect([...issued].sort()).toEqual(issued);
    expect(new Set(issued).size).toBe(issued.length);
  });
});
