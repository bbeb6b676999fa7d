import { describe, expect, it } from 'vitest';
import { extractMarkers } from '#shared/qa/documents/markers.ts';
import { neutralizeMarkers } from '#shared/text/citation-markers.ts';

describe('neutralizeMarkers', () => {
  it('puts passage markers and marker lists in full-width brackets', () => {
    expect(neutralizeMarkers('Proven safe [9][1]. See [2, 3].')).toBe(
      'Proven safe ［9］［1］. See ［2, 3］.',
    );
  });

  it('neutralizes documents-mode references, image ones with their file name too', () => {
    expect(neutralizeMarkers('As [DOC-1a2b3c4d-PARA-2] and [DOC-1a2b3c4d-IMAGE-1: img_001.png] show.')).toBe(
      'As ［DOC-1a2b3c4d-PARA-2］ and ［DOC-1a2b3c4d-IMAGE-1: img_001.png］ show.',
    );
  });

  it('leaves other brackets alone', () => {
    const text = 'A [link](https://x.y), a [note], an array a[0] and [x1].';
    expect(neutralizeMarkers(text)).toBe('A [link](https://x.y), a [note], an array a［0］ and [x1].');
  });
});

describe('extractMarkers', () => {
  it('reads markers in brackets only, never neutralized ones', () => {
    expect(
      extractMarkers(
        'A [DOC-abcd1234-PARA-2]. Quoted: ［DOC-abcd1234-PARA-7］. B [DOC-abcd1234-PARA-3, DOC-abcd1234-IMAGE-1]',
      ),
    ).toEqual(['DOC-abcd1234-PARA-2', 'DOC-abcd1234-PARA-3', 'DOC-abcd1234-IMAGE-1']);
  });
});
