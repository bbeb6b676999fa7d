import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectInputs } from '#shared/cli/files.ts';
import { textPng } from '../../helpers/text-png.ts';

describe('collectInputs', () => {
  it('ingests a picture no document links to (a scan) and keeps a linked one as an asset', () => {
    const root = mkdtempSync(join(tmpdir(), 'dropqa-inputs-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'review.md'), '# Review\n\n![Revenue](chart.png)\n');
    writeFileSync(join(root, 'docs', 'chart.png'), textPng('CHART'));
    writeFileSync(join(root, 'invoice-scan.jpg'), textPng('PAID'));
    writeFileSync(join(root, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const inputs = collectInputs([root]);
    expect(inputs.documents.map((file) => file.key).sort()).toEqual([
      'uploads/docs/review.md',
      'uploads/invoice-scan.jpg',
    ]);
    expect(inputs.assets.map((file) => file.key).sort()).toEqual([
      'uploads/docs/chart.png',
      'uploads/logo.svg',
    ]);
  });
});
