import type { Config } from '#shared/config/index.ts';

/** The settings normalization works with, from `config.limits` and `config.structure`. */
export interface NormalizeOptions {
  maxParagraphChars: number;
  paragraphTargetChars: number;
  maxSectionChars: number;
  maxFlatSections: number;
  enrichTitles: boolean;
}

/** The normalization settings of a configuration. */
export function normalizeOptionsOf(config: Pick<Config, 'limits' | 'structure'>): NormalizeOptions {
  return {
    maxParagraphChars: config.limits.maxParagraphChars,
    paragraphTargetChars: config.limits.paragraphTargetChars,
    maxSectionChars: config.structure.maxSectionChars,
    maxFlatSections: config.structure.maxFlatSections,
    enrichTitles: config.structure.enrichTitles,
  };
}
