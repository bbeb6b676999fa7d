/**
 * One file through the Parse step's own path, as `dropqa ingest` runs it (type detection, parsing
 * under the default configuration's limits and time limit, tree normalization with the offline
 * providers), reduced to what a person sees: ready, or failed with a reason; anything else that
 * escapes (a plain error, not a readable `UnsupportedDocumentError`) is a crash.
 */
import { parseConfig } from '#shared/config/index.ts';
import { normalizeTree } from '#shared/enrich/structure/normalize.ts';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { createProviders } from '#shared/llm/providers.ts';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseLimitsOf } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { normalizeOptionsOf } from '#shared/parse/structure/options.ts';
import { unreadableReason } from './damage.ts';

const CONFIG = parseConfig({});
const LIMITS = parseLimitsOf(CONFIG);
const PROVIDERS = createProviders(CONFIG);
const NORMALIZE = normalizeOptionsOf(CONFIG);

export interface ParseOutcome {
  name: string;
  status: 'ready' | 'failed' | 'crash';
  /** The failure's reason, or the crash's message. */
  reason?: string;
  /** What is wrong with a failure's reason (`unreadableReason`), if anything. */
  problem?: string;
  /** Wall time (the machine may be loaded) and this process's CPU time, in milliseconds. */
  ms: number;
  cpuMs: number;
}

export async function parseOutcome(name: string, bytes: Uint8Array): Promise<ParseOutcome> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const timing = () => {
    const used = process.cpuUsage(cpu);
    return {
      ms: Math.round(performance.now() - started),
      cpuMs: Math.round((used.user + used.system) / 1000),
    };
  };
  try {
    const parsed = await parseDocument(
      { bytes, filename: name, limits: LIMITS },
      detectFileType(bytes, name),
    );
    await normalizeTree(parsed, PROVIDERS, NORMALIZE);
    return { name, status: 'ready', ...timing() };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!(error instanceof UnsupportedDocumentError)) return { name, status: 'crash', reason, ...timing() };
    const problem = unreadableReason(name, reason);
    return { name, status: 'failed', reason, ...(problem ? { problem } : {}), ...timing() };
  }
}
