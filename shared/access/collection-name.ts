import { ValidationError } from '#shared/errors.ts';

// Apart from the access scopes (which build SQL): the configuration's schema checks names with it,
// and loading it must not load drizzle (every CLI command loads the configuration).

/** A collection name: lower-case letters, digits, `-` and `_`, starting with a letter or digit. */
export const COLLECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Throws a ValidationError naming `field` unless `name` is a collection name. */
export function assertCollectionName(name: string, field = 'collection'): string {
  if (!COLLECTION_NAME.test(name)) {
    throw new ValidationError(
      `${field}: '${name}' is not a collection name (lower-case letters, digits, '-' and '_', at most 63)`,
    );
  }
  return name;
}
