import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/** The committed SQL migrations and drizzle's journal of them, applied by the Schema custom resource. */
export const MIGRATIONS_DIR = join(REPO_ROOT, 'shared/db/migrations');

/**
 * SHA-256 over every file of the migrations folder (its path and its bytes, in path order): the
 * Schema custom resource's property, so CloudFormation calls the migration function exactly when a
 * migration was added or changed, however many deploys a day.
 *
 * @example new CustomResource(this, 'Schema', { serviceToken, properties: { migrations: migrationsHash() } })
 */
export function migrationsHash(dir: string = MIGRATIONS_DIR): string {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split(sep).join('/'))
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
  const hash = createHash('sha256');
  for (const path of files)
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(dir, path)))
      .update('\0');
  return hash.digest('hex');
}
