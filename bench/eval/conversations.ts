import { resolveFollowUp } from '#shared/qa/conversation/follow-up.ts';
import type { Rewrite, Turn } from '#shared/qa/conversation/turns.ts';
import { search } from '#shared/search/index.ts';
import { splitSentences } from '#shared/text/sentences.ts';
import type { BeirSet } from './beir.ts';
import { meanMetrics, queryMetrics } from './metrics.ts';
import type { IngestedSet } from './run.ts';

/** A two-turn conversation built from a judged query: a first question naming the subject, a follow-up without it. */
export interface BuiltConversation {
  queryId: string;
  subject: string;
  first: string;
  followUp: string;
  /** The judged query the follow-up stands for. */
  original: string;
}

/**
 * Conversations built from a set's judged queries, by a rule that knows nothing of the resolver:
 * where the query holds its relevant document's title (`cmrc2018-trial`: "范廷颂是什么时候被任为主教的？")
 * the title is the subject; otherwise the words before the query's first "的" ("中国人民大学中法学院
 * 的院长是谁？", `domainrag-dev`). The first question asks about the subject ("介绍一下范廷颂"), the
 * follow-up is the query without it ("是什么时候被任为主教的？", "院长是谁？").
 */
export function buildConversations(set: BeirSet, limit = 300): BuiltConversation[] {
  const titles = new Map(set.documents.map((doc) => [doc.id, doc.title.trim()]));
  const built: BuiltConversation[] = [];
  for (const query of set.queries) {
    const text = query.text.trim();
    const relevant = [...(set.qrels.get(query.id)?.keys() ?? [])];
    const title = relevant.map((id) => titles.get(id) ?? '').find((t) => t.length >= 2 && text.includes(t));
    let subject = title;
    let followUp = title ? text.replace(title, '').replace(/^[的，,\s]+/u, '') : '';
    if (!subject) {
      const at = text.indexOf('的');
      if (at < 4) continue;
      subject = text.slice(0, at);
      followUp = text.slice(at + 1);
    }
    if ([...followUp.replace(/[？?。\s]/gu, '')].length < 2) continue;
    built.push({ queryId: query.id, subject, first: `介绍一下${subject}`, followUp, original: text });
    if (built.length >= limit) break;
  }
  return built;
}

export interface ConversationScore {
  set: string;
  conversations: number;
  /** nDCG@10 of hybrid search for the follow-up alone, with the conversation (offline rewrite), and for the judged query. */
  alone: number;
  withConversation: number;
  original: number;
  /** Per conversation: alone and with the conversation, for the noise of the difference. */
  perAlone: number[];
  perWith: number[];
  /**
   * The conversations whose subject an earlier built conversation shares, asked third in a chain
   * (the first question, that earlier follow-up as rewritten with its answer, then this one):
   * nDCG@10 of this follow-up rewritten from the whole chain, against from the first turn alone.
   */
  chained: { conversations: number; afterOneTurn: number; afterTwoTurns: number };
  /** Milliseconds per offline rewrite. */
  rewriteP95Ms: number;
}

/**
 * Retrieval on the built conversations over an ingested set: the first question is searched and its
 * best passage's first two sentences become the answer (as the offline answer quotes them), then
 * the follow-up is searched alone and as `resolveFollowUp` rewrites it from that turn; where an
 * earlier conversation asked about the same subject, also as it rewrites it after that one's
 * follow-up too (`chained`: a chain keeps the subject).
 */
export async function scoreConversations(
  set: BeirSet,
  ingested: IngestedSet,
  conversations: readonly BuiltConversation[],
): Promise<ConversationScore> {
  const { rt, corpusId } = ingested;
  const ranked = async (query: string) =>
    (await search(rt.qa, { query, kind: 'hybrid', limit: 100 })).map(
      (hit) => corpusId(hit.documentKey) ?? `?${hit.documentKey}`,
    );
  // The offline answer to a question: the first two sentences of its best passage, quoted.
  const answer = async (question: string) => {
    const [best] = await search(rt.qa, { query: question, kind: 'hybrid', limit: 1 });
    const quoted = splitSentences(best?.content ?? '')
      .slice(0, 2)
      .map((s, i) => `> ${s.trim()} [${i + 1}]`)
      .join('\n');
    return `离线抽取式回答：\n\n${quoted}`;
  };
  const alone = [];
  const withConversation = [];
  const original = [];
  const afterOne = [];
  const afterTwo = [];
  const times: number[] = [];
  // Per subject, the follow-up of the latest conversation about it, as rewritten: what a chain asks
  // before (its answer searched only when a later conversation shares the subject).
  const earlier = new Map<string, { question: string; rewrite: Rewrite }>();
  for (const c of conversations) {
    const turns: Turn[] = [{ question: c.first, answer: await answer(c.first) }];
    const began = performance.now();
    const rewrite = resolveFollowUp(c.followUp, turns);
    times.push(performance.now() - began);
    const relevant = set.qrels.get(c.queryId) ?? new Map();
    const withOne = queryMetrics(await ranked(rewrite.standalone_question), relevant);
    alone.push(queryMetrics(await ranked(c.followUp), relevant));
    withConversation.push(withOne);
    original.push(queryMetrics(await ranked(c.original), relevant));
    const before = earlier.get(c.subject);
    if (before) {
      const { standalone_question, subject } = before.rewrite;
      const second: Turn = {
        question: before.question,
        standalone_question,
        subject,
        answer: await answer(standalone_question),
      };
      const chained = resolveFollowUp(c.followUp, [...turns, second]);
      afterOne.push(withOne.ndcg10);
      afterTwo.push(queryMetrics(await ranked(chained.standalone_question), relevant).ndcg10);
    }
    earlier.set(c.subject, { question: c.followUp, rewrite });
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  times.sort((a, b) => a - b);
  return {
    set: set.name,
    conversations: conversations.length,
    alone: meanMetrics(alone).ndcg10,
    withConversation: meanMetrics(withConversation).ndcg10,
    original: meanMetrics(original).ndcg10,
    perAlone: alone.map((m) => m.ndcg10),
    perWith: withConversation.map((m) => m.ndcg10),
    chained: { conversations: afterTwo.length, afterOneTurn: mean(afterOne), afterTwoTurns: mean(afterTwo) },
    rewriteP95Ms: times[Math.min(times.length - 1, Math.floor(0.95 * times.length))] ?? 0,
  };
}
