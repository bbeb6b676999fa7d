/** An earlier question of a conversation with its answer. */
export interface Turn {
  question: string;
  answer: string;
  /** The question retrieval used, when the turn was a resolved follow-up. */
  standalone_question?: string;
  /** What the offline resolution put into it (`Rewrite.subject`): the subject a later follow-up keeps. */
  subject?: string;
}

/** The question retrieval uses for a turn, and the earlier turns (numbered from 1) it drew on. */
export interface Rewrite {
  standalone_question: string;
  from_turns: number[];
  /**
   * The words the offline resolution put into the question (`resolveFollowUp`: the conversation's
   * subject, as its words stand in the turn that named it); a model's rewrite has none.
   */
  subject?: string;
}

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * A rough token count without a tokenizer: one token per CJK character, one per four other
 * characters (what the BPE tokenizers of the chat models give on average for Chinese and English).
 *
 * @example estimateTokens('预算是多少？') // 6
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK_CHAR)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/**
 * The most recent turns whose questions and answers fit in `budgetTokens`, oldest first, with
 * their turn numbers. A turn that does not fit whole ends the selection (older turns are dropped
 * first), so the answering model always sees the conversation's latest exchanges.
 */
export function recentTurns(turns: Turn[], budgetTokens: number): { turn: Turn; number: number }[] {
  const picked: { turn: Turn; number: number }[] = [];
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i -= 1) {
    const turn = turns[i] as Turn;
    const cost = estimateTokens(turn.question) + estimateTokens(turn.answer);
    if (used + cost > budgetTokens) break;
    used += cost;
    picked.unshift({ turn, number: i + 1 });
  }
  return picked;
}
