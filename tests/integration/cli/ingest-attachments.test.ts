import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64Part, eml, multipart } from '../../unit/parse/mail-fixtures.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/dropqa.js');

describe('dropqa ingest with an e-mail that brings attachments', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-cli-mail-'));
    mkdirSync(join(dir, 'mail'));
    const message = eml(
      ['From: Ana <ana@example.com>', 'To: Li <li@example.com>', 'Subject: Lisbon budget'],
      multipart('mixed', 'b1', [
        { headers: ['Content-Type: text/plain; charset=utf-8'], body: 'The budget is attached.' },
        base64Part(
          [
            'Content-Type: text/plain; name="budget.txt"',
            'Content-Disposition: attachment; filename="budget.txt"',
          ],
          'The Lisbon budget is 180 euros a night.\n',
        ),
        base64Part(
          [
            'Content-Type: text/markdown; name="plan.md"',
            'Content-Disposition: attachment; filename="plan.md"',
          ],
          '# Plan\n\nOpen the Lisbon office in March.\n',
        ),
      ]),
    );
    writeFileSync(join(dir, 'mail', 'budget.eml'), message);
    writeFileSync(join(dir, 'mail', 'notes.md'), '# Notes\n\nNothing else.\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('counts the attachments into the progress total and the summary, never past it', async () => {
    const env = { ...process.env, DROPQA_DATA_DIR: join(dir, 'data') };
    const { stdout, stderr } = await run(process.execPath, [BIN, 'ingest', 'mail'], { env, cwd: dir });
    const steps = [...stderr.matchAll(/^\[(\d+)\/(\d+)\] (\S+)/gm)].map((m) => [
      Number(m[1]),
      Number(m[2]),
      m[3],
    ]);
    expect(steps).toHaveLength(4);
    for (const [done, total] of steps) expect(done).toBeLessThanOrEqual(total as number);
    expect(steps.at(-1)).toEqual([4, 4, 'ready']);
    expect(stdout).toMatch(/^2 scanned \(\+2 attachment\(s\)\): 4 indexed, 0 unchanged, 0 failed\n/m);
  });
});
