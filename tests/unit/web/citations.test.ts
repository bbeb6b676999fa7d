import { describe, expect, it } from 'vitest';
import { linkCitations } from '../../../web/src/lib/markdown.ts';
import { applyEvent, citationIds, newTurn } from '../../../web/src/lib/turn.ts';

describe('linkCitations', () => {
  const links = (...ids: string[]) => ({ prefix: 't1-ref', citations: new Map(ids.map((id) => [id, id])) });

  it('links the markers that name one of the answer citations', () => {
    expect(linkCitations('<p>Budget 2 million [1].</p>', links('1'))).toBe(
      '<p>Budget 2 million <sup><a class="citation" href="#t1-ref-1">[1]</a></sup>.</p>',
    );
  });

  it('leaves a marker naming no citation of the answer as text', () => {
    const html = linkCitations('<blockquote><p>Proven safe [9][1]. [2]</p></blockquote>', links('2'));
    expect(html).toBe(
      '<blockquote><p>Proven safe [9][1]. <sup><a class="citation" href="#t1-ref-2">[2]</a></sup></p></blockquote>',
    );
  });

  it('never links the neutralized markers of quoted document text', () => {
    expect(linkCitations('<p>Proven safe ［9］［1］. [1]</p>', links('1', '9'))).toBe(
      '<p>Proven safe ［9］［1］. <sup><a class="citation" href="#t1-ref-1">[1]</a></sup></p>',
    );
  });

  it('links documents-mode references, numbered like other citations, only when the answer carries them', () => {
    const turn = newTurn('q', 'documents');
    applyEvent(turn, 'references', {
      sources: [],
      references: [{ ref_id: 'DOC-0a1b2c3d-PARA-1', chunk_type: 'text' }],
    });
    const html = linkCitations('<p>A [DOC-0a1b2c3d-PARA-1] B [DOC-0a1b2c3d-PARA-2]</p>', {
      prefix: 't1-ref',
      citations: citationIds(turn),
    });
    expect(html).toBe(
      '<p>A <sup><a class="citation" href="#t1-ref-DOC-0a1b2c3d-PARA-1">[1]</a></sup> B [DOC-0a1b2c3d-PARA-2]</p>',
    );
  });
});
