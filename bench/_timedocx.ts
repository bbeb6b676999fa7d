import { readFileSync } from 'node:fs';
import { parseDocx } from '#shared/parse/docx/index.ts';

const path = process.argv[2] as string;
const bytes = new Uint8Array(readFileSync(path));
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  const doc = await parseDocx({ bytes, filename: 'x.docx' });
  console.log((performance.now() - t).toFixed(0), 'ms', doc.children.length, doc.warnings.length);
}
