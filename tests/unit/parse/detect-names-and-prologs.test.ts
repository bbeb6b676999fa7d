import { describe, expect, it } from 'vitest';
import { nameMismatch, typeNamedBy } from '#shared/parse/name-mismatch.ts';
import { xmlProlog } from '#shared/parse/xml-doctype.ts';

describe('nameMismatch', () => {
  it('warns when an Office or PDF extension promises another type than the content', () => {
    expect(nameMismatch('scan.docx', 'pdf')).toBe(
      'scan.docx is named .docx but is a PDF document; it was read as one',
    );
    expect(nameMismatch('deck.xlsx', 'pptx')).toBe(
      'deck.xlsx is named .xlsx but is a PowerPoint presentation; it was read as one',
    );
    expect(nameMismatch('notes.md', 'docx')).toBe(
      'notes.md is named .md but is a Word document; it was read as one',
    );
  });

  it('says nothing when the name agrees, is a macro or template variant, or promises nothing', () => {
    expect(nameMismatch('a.DOCX', 'docx')).toBeUndefined();
    expect(nameMismatch('a.xlsm', 'xlsx')).toBeUndefined();
    expect(nameMismatch('a.txt', 'md')).toBeUndefined();
    expect(nameMismatch('upload', 'pdf')).toBeUndefined();
    expect(nameMismatch('a.bin', 'docx')).toBeUndefined();
  });

  it('tells which type a name promises', () => {
    expect(typeNamedBy('x.pptm')).toBe('pptx');
    expect(typeNamedBy('x.markdown')).toBe('text');
    expect(typeNamedBy('x.zip')).toBeUndefined();
  });
});

describe('xmlProlog', () => {
  it('finds a DOCTYPE after the declaration, comments and processing instructions', () => {
    expect(xmlProlog('<?xml version="1.0"?>\n<!-- c --><?pi x?><!DOCTYPE a [<!ENTITY b "c">]><a/>')).toBe(
      'doctype',
    );
  });

  it('passes an ordinary part, a BOM included', () => {
    expect(xmlProlog('\uFEFF<?xml version="1.0" standalone="yes"?>\r\n<w:document xmlns:w="w"/>')).toBe(
      'plain',
    );
  });

  it('reports a prolog that has not ended where the text does', () => {
    expect(xmlProlog('<?xml version="1.0"?><!-- a comment that goes on')).toBe('unfinished');
    expect(xmlProlog('   ')).toBe('unfinished');
  });
});
