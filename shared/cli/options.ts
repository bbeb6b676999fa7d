/** The `node:util` parseArgs options of every `dropqa` command (one table: flags mean the same everywhere). */
export const CLI_OPTIONS = {
  json: { type: 'boolean', default: false },
  mode: { type: 'string' },
  version: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  kind: { type: 'string' },
  limit: { type: 'string' },
  status: { type: 'string' },
  all: { type: 'boolean', default: false },
  topic: { type: 'string', multiple: true },
  document: { type: 'string', multiple: true },
  'show-reasoning': { type: 'boolean', default: false },
  conversation: { type: 'string' },
  collection: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;
