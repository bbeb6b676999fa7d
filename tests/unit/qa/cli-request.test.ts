import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { askRequestFromCli } from '#shared/cli/commands/ask.ts';
import { CLI_OPTIONS } from '#shared/cli/options.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('askRequestFromCli', () => {
  it('builds the HTTP request body from the flags, ids repeated or comma-separated', () => {
    const { values } = parseArgs({
      args: ['--topic', A, '--document', `${A},${B}`, '--show-reasoning'],
      options: CLI_OPTIONS,
    });
    const request = askRequestFromCli('预算是多少？', {
      mode: 'agent',
      version: '2',
      topic: values.topic,
      document: values.document,
      showReasoning: values['show-reasoning'],
      json: false,
    });
    expect(request).toEqual({
      question: '预算是多少？',
      mode: 'agent',
      version: 2,
      topic_filter: [A],
      document_ids: [A, B],
      show_reasoning: true,
    });
  });

  it('rejects a document id that is not a UUID, as the API does', () => {
    expect(() => askRequestFromCli('q', { document: 'plan.md', json: false })).toThrow(/document_ids/);
  });
});
