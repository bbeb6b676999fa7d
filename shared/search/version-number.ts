import { z } from 'zod';

/** The largest value of a Postgres `integer` column (version numbers are stored as one). */
export const MAX_INT4 = 2_147_483_647;

/**
 * A document version number as a user gives it (query parameter, CLI flag; strings coerced): a
 * positive integer a version column can hold, so `version=10000000000` is a 400 naming the field
 * instead of a database error.
 */
export const versionNumber = z.coerce.number().int().positive().max(MAX_INT4);
