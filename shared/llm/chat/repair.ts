import type { ChatMessage, TokenUsage } from '../types.ts';
import type { Checked } from './structured.ts';

/** One try at structured output: the checked value and what to append to ask for a repair. */
export interface StructuredAttempt<T> {
  checked: Checked<T>;
  usage: TokenUsage;
  model: string;
  /** The model's reply and the request to correct it, appended to the conversation for the retry. */
  repair: ChatMessage[];
}

/** Invalid structured output, after the repair retry too. */
export class InvalidOutputError extends Error {
  constructor(problem: string) {
    super(`invalid structured output after one repair attempt: ${problem}`);
    this.name = 'InvalidOutputError';
  }
}

/**
 * Runs `attempt`, and once more with its repair messages appended when the output does not match
 * the schema; usage is summed over both. Throws InvalidOutputError when the repair fails too.
 */
export async function withRepair<T>(
  messages: ChatMessage[],
  attempt: (messages: ChatMessage[]) => Promise<StructuredAttempt<T>>,
): Promise<{ value: T; usage: TokenUsage; model: string }> {
  const usage = { inputTokens: 0, outputTokens: 0 };
  let conversation = messages;
  for (let tries = 0; ; tries++) {
    const outcome = await attempt(conversation);
    usage.inputTokens += outcome.usage.inputTokens;
    usage.outputTokens += outcome.usage.outputTokens;
    if (outcome.checked.ok) return { value: outcome.checked.value, usage, model: outcome.model };
    if (tries >= 1) throw new InvalidOutputError(outcome.checked.problem);
    conversation = [...conversation, ...outcome.repair];
  }
}

/** The user's request to fix output that failed validation. */
export function repairInstruction(problem: string): string {
  return `That output does not match the required schema: ${problem}. Reply again with output that matches the schema exactly.`;
}
