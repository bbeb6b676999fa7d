import { describe, expect, it } from 'vitest';
import { collectionOfKey, narrowScope, readableCollections, uploadPrefix } from '#shared/access/index.ts';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';

const settings = {
  default: 'default',
  prefixes: { 'hr/': 'hr', 'watch/hr-share': 'hr', 'hr/public/': 'everyone' },
};

describe('collectionOfKey', () => {
  it('names the collection from the longest configured prefix of the key', () => {
    expect(collectionOfKey('hr/pay/2024.xlsx', settings)).toBe('hr');
    expect(collectionOfKey('hr/public/handbook.md', settings)).toBe('everyone');
    expect(collectionOfKey('watch/hr-share/a.docx', settings)).toBe('hr');
  });

  it('gives the default to a key no prefix names (a prefix is a whole folder, not part of a name)', () => {
    expect(collectionOfKey('uploads/notes.md', settings)).toBe('default');
    expect(collectionOfKey('hrm/notes.md', settings)).toBe('default');
  });

  it('keeps an upload into a chosen collection there, whatever the prefixes say', () => {
    expect(collectionOfKey(`${uploadPrefix('eng')}hr/a.md`, settings)).toBe('eng');
  });

  it('refuses a collection name that is not one', () => {
    expect(() => uploadPrefix('../hr')).toThrow(/not a collection name/);
    expect(() => collectionOfKey('collections/Bad Name/a.md', settings)).toThrow(/not a collection name/);
  });
});

describe('narrowScope', () => {
  it('narrows to the named collection only when it is readable, else to nothing', () => {
    expect(narrowScope(ALL_COLLECTIONS, 'hr')).toEqual(readableCollections(['hr']));
    expect(narrowScope(readableCollections(['eng']), 'hr')).toEqual(readableCollections([]));
    expect(narrowScope(readableCollections(['eng']), undefined)).toEqual(readableCollections(['eng']));
  });
});
