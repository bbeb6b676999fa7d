import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/**
 * Every prompt file of the code (`shared/<area>/.../prompts/<name>.md`) by repository path: the
 * functions' build defines them as `DROPQA_PROMPTS` (shared/llm/bundled-prompts.ts), since the
 * prompt loaders read `.md` files beside their modules, which a Lambda package does not hold (and
 * two prompt folders share file names, so the files could not simply be copied beside the chunks).
 */
export function promptTexts(): Record<string, string> {
  const files = readdirSync(join(REPO_ROOT, 'shared'), { recursive: true, encoding: 'utf8' })
    .map((file) => `shared/${file.split('\\').join('/')}`)
    .filter((file) => /\/prompts\/[^/]+\.md$/.test(file))
    .sort();
  return Object.fromEntries(files.map((file) => [file, readFileSync(join(REPO_ROOT, file), 'utf8')]));
}
