import type { Config } from '../../config/index.ts';
import { type AskRequest, askRequestSchema } from '../../qa/request.ts';
import { openBackend } from '../backend.ts';

export interface AskOptions {
  mode?: string;
  version?: string;
  json: boolean;
}

/** `dropqa ask "<question>" [--mode] [--version] [--json]`: the answer streams to the terminal, then its sources. */
export async function askCommand(config: Config, question: string, options: AskOptions): Promise<number> {
  const request: AskRequest = askRequestSchema.parse({
    question,
    mode: options.mode,
    version: options.version === undefined ? undefined : Number(options.version),
  });
  const backend = await openBackend(config);
  let exitCode = 0;
  try {
    for await (const event of backend.ask(request)) {
      if (options.json) {
        process.stdout.write(`${JSON.stringify(event)}\n`);
        if (event.type === 'error') exitCode = 1;
        continue;
      }
      switch (event.type) {
        case 'meta':
          process.stderr.write(`mode ${event.data.mode} · ${event.data.provider}\n\n`);
          break;
        case 'delta':
          process.stdout.write(event.data.text);
          break;
        case 'done': {
          const { response } = event.data;
          process.stdout.write(`\n\nConfidence: ${response.confidence}\nSources:\n`);
          response.sources.forEach((s, i) => {
            const score = typeof s.relevance === 'number' ? ` (relevance ${s.relevance.toFixed(2)})` : '';
            process.stdout.write(`  [${i + 1}] ${s.document_name} > ${s.section}${score}\n`);
          });
          break;
        }
        case 'error':
          process.stderr.write(`\nerror (${event.data.code}): ${event.data.message}\n`);
          exitCode = 1;
          break;
        default:
          break;
      }
    }
  } finally {
    await backend.close();
  }
  return exitCode;
}
