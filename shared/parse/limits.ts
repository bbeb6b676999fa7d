import type { Config } from '#shared/config/index.ts';

/**
 * Bounds a parser enforces on hostile input (zip bombs, endless pages or rows). The defaults are
 * the configuration's defaults; `parseLimitsOf(config)` takes the configured ones.
 */
export interface ParseLimits {
  /** Entries in an Office archive's central directory. */
  maxZipEntries: number;
  /** Sum of an Office archive's uncompressed entry sizes. */
  maxUncompressedBytes: number;
  /** Uncompressed / compressed size of one large entry above which the archive is refused. */
  maxCompressionRatio: number;
  maxPages: number;
  maxSlides: number;
  /** Spreadsheet rows read per workbook. */
  maxRows: number;
  /** The whole parse of one file. */
  parseTimeoutMs: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxZipEntries: 10_000,
  maxUncompressedBytes: 1024 * 1024 * 1024,
  maxCompressionRatio: 200,
  maxPages: 5_000,
  maxSlides: 2_000,
  maxRows: 2_000_000,
  parseTimeoutMs: 120_000,
};

/** The parse limits of a configuration (`config.limits`): the keys of `ParseLimits`, each from there. */
export function parseLimitsOf(config: Pick<Config, 'limits'>): ParseLimits {
  const keys = Object.keys(DEFAULT_PARSE_LIMITS) as (keyof ParseLimits)[];
  return Object.fromEntries(keys.map((key) => [key, config.limits[key]])) as unknown as ParseLimits;
}
