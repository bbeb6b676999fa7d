/**
 * The notice that leads every offline answer and summary, worded once for all answer modes (direct,
 * agent, two-stage, documents, tables, summaries): what it is, how it was made, and that no language
 * model was used, in the question's language. `zh` picks Chinese.
 */

/** "<What> (<how>; no language model):" or "<What>（<how>，未使用语言模型）：". */
function notice(zh: boolean, what: [en: string, zh: string], how?: [en: string, zh: string]): string {
  return zh
    ? `${what[1]}（${how ? `${how[1]}，` : ''}未使用语言模型）：`
    : `${what[0]} (${how ? `${how[0]}; ` : ''}no language model):`;
}

const EXTRACTIVE: [string, string] = ['Offline extractive answer', '离线抽取式回答'];

/**
 * The notice above an extractive answer's verbatim quotes.
 *
 * @example offlineAnswerNotice(false) // 'Offline extractive answer (verbatim quotes; no language model):'
 */
export function offlineAnswerNotice(zh: boolean): string {
  return notice(zh, EXTRACTIVE, ['verbatim quotes', '原文摘录']);
}

/** The whole offline answer when no passage answers the question. */
export function offlineNoAnswer(zh: boolean): string {
  return zh
    ? `${EXTRACTIVE[1]}：文档中没有找到能回答这个问题的段落。`
    : `${EXTRACTIVE[0]}: no passage in your documents answers this question.`;
}

/**
 * The notice above a table answer. The table's name stands in 《》 or single quotes: double quotation
 * marks would claim it as text quoted from a passage (shared/qa/citations.ts), and a sheet's name is
 * in none.
 */
export function offlineTableNotice(zh: boolean, title: string): string {
  return notice(
    zh,
    ['Offline table answer', '离线表格回答'],
    [`worked out from the table ‘${title}’`, `由表格《${title}》计算得出`],
  );
}

/** The notice above an offline summary: of the document `name`, or (without it) of several. */
export function offlineSummaryNotice(zh: boolean, name?: string): string {
  return notice(
    zh,
    ['Offline summary', '离线摘要'],
    name === undefined ? undefined : [`sentences taken from ${name}`, `句子摘自《${name}》`],
  );
}
