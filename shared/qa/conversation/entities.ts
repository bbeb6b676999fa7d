import { hasCjk, isStopword, tagWords } from '#shared/text/segment.ts';

const HAN_WORD = /^\p{Script=Han}{2,8}$/u;
/** jieba's tags for names: person, place, organisation, other proper noun. */
const NAME_TAGS = new Set(['nr', 'nrt', 'ns', 'nt', 'nz']);
/** Head nouns that make the word before them a name: 星河 + 计划, 北斗 + 项目. */
const NAME_HEADS =
  /^(?:计划|项目|工程|系统|平台|公司|集团|部门|中心|小组|团队|产品|方案|协议|标准|大学|学院|银行|医院)$/u;
/** Text in title marks or quotes: 《数据安全法》, 「天穹」, “北斗”, "Orion". */
const QUOTED = /[《「『“"]([^》」』”"]{1,30})[》」』”"]/gu;
/** Capitalised word runs in Latin text: "Project Orion", "Maria Chen", "AWS". */
const CAPITALISED = /\b[A-Z][\p{L}\p{N}-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\p{L}\p{N}-]*)*/gu;
/** Capitalised words that are not names: sentence openers and question words. */
const NOT_NAMES = new Set(
  'a an and but how i if in is it its of on or so that the their then there these they this those to was we what when where which who whom whose why will with yes no does did do can could should would are were has have had also after before for from'.split(
    ' ',
  ),
);

/**
 * Named entities of a text without a model (the offline follow-up resolution's anchors): in
 * Chinese the words jieba tags as names (or finds outside its dictionary), a word joined to a
 * following head noun ("星河计划", "北斗项目") and quoted titles; in English capitalised word runs
 * that are not sentence openers or question words ("Project Orion", "Maria Chen"). Lower-cased,
 * distinct, in order of appearance.
 *
 * @example namedEntities('星河计划的负责人是李明。') // ['星河计划', '李明']
 */
export function namedEntities(text: string): string[] {
  const found: string[] = [];
  const add = (entity: string) => {
    const e = entity.trim().toLowerCase();
    if (e && !isStopword(e) && !found.some((f) => f.includes(e))) found.push(e);
  };
  for (const match of text.matchAll(QUOTED)) add(match[1] ?? '');
  if (hasCjk(text)) cjkEntities(text).forEach(add);
  for (const match of text.matchAll(CAPITALISED)) {
    const words = match[0].split(/\s+/);
    while (words.length > 0 && NOT_NAMES.has((words[0] ?? '').toLowerCase())) words.shift();
    const name = words.join(' ');
    if (name.length >= 2) add(name);
  }
  return found;
}

function cjkEntities(text: string): string[] {
  const words = tagWords(text);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const { word, tag } = words[i] as { word: string; tag: string };
    const next = words[i + 1]?.word ?? '';
    if (HAN_WORD.test(word) && tag !== 'r' && NAME_HEADS.test(next) && !NAME_HEADS.test(word)) {
      out.push(word + next);
      i += 1;
    } else if ((NAME_TAGS.has(tag) || tag === 'x') && HAN_WORD.test(word)) {
      out.push(word);
    }
  }
  return out;
}

/** jieba tags of words that can carry what a question is about: nouns, names, unknown words. */
const KEY_TAG = /^(?:n|vn|an|x|eng|j|l|i)/;
const QUESTION_WORDS =
  /^(?:what|which|who|whom|whose|when|where|why|how|does|did|do|can|could|would|should)$/;

/**
 * The key words of a question as whole words (not search-mode fragments): Chinese nouns, names and
 * unknown words of two or more characters, Latin words of three or more letters that are not
 * function or question words. Lower-cased, distinct.
 *
 * @example keyTerms('星河计划的负责人是谁？') // ['星河', '计划', '负责人']
 */
export function keyTerms(text: string): string[] {
  const out = new Set<string>();
  if (hasCjk(text)) {
    for (const { word, tag } of tagWords(text)) {
      if (KEY_TAG.test(tag) && HAN_WORD.test(word)) out.add(word);
    }
  }
  for (const word of text.toLowerCase().match(/[a-z][a-z0-9-]{2,}/g) ?? []) {
    if (!isStopword(word) && !QUESTION_WORDS.test(word) && !NOT_NAMES.has(word)) out.add(word);
  }
  return [...out];
}

const THING_HEAD =
  /(?:计划|项目|工程|系统|平台|公司|集团|部门|中心|小组|团队|产品|方案|协议|标准|大学|学院|银行|医院|\b(?:project|plan|program|programme|system|platform|migration|company|team|product|service|department|initiative|report|policy|standard|university|bank|hospital|group|inc|ltd)\b)/iu;

/**
 * What kind of thing an entity of `namedEntities` names, by its form: a project, system or
 * organisation when it ends in such a head noun ("北斗项目", "atlas migration"); a person when it
 * is a short Chinese name or two or three English words without one ("李明", "maria chen");
 * otherwise unknown ("atlas").
 */
export function entityKind(entity: string): 'person' | 'thing' | 'unknown' {
  if (THING_HEAD.test(entity)) return 'thing';
  if (/^\p{Script=Han}{2,3}$/u.test(entity)) return 'person';
  if (/^[a-z]+(?: [a-z]+){1,2}$/.test(entity)) return 'person';
  return 'unknown';
}

/** jieba tags of common nouns a name's phrase runs on with: 外语类, 保送生. */
const COMMON_NOUN = /^(?:n|vn|nz|j)$/;
/** jieba tags that name something on their own: person, place, organisation, other proper noun, Latin word, idiom or title. */
const ANCHOR_TAGS = new Set(['nr', 'nrt', 'ns', 'nt', 'nz', 'eng', 'i']);
/**
 * A capitalised English name, possibly of several words, with a lower-case head noun before it:
 * "Project Borealis", "Maria Chen", "project Alpha".
 */
const EN_NAME =
  /(?:\b(?:project|programme|program|plan|system|platform|team|company|product|initiative|department)\s+)?\b[A-Z][\p{L}\p{N}-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\p{L}\p{N}-]*)*/gu;

/**
 * What a question is about, as its words stand in it (case kept), when it names something: in
 * Chinese the run of names around the first word jieba tags as a proper noun or Latin word
 * ("中国人民大学文学院", a one-character word between two names kept: "中国人民大学中法学院"), a word
 * with a head noun ("星河计划") or a quoted title; in English the first capitalised name that is not
 * a sentence opener ("Project Borealis"). Undefined when it names nothing ("保研率是多少", "And who
 * led it?"): a follow-up then takes the conversation's subject.
 *
 * @example subjectPhrase('中国人民大学文学院前身是什么') // '中国人民大学文学院'
 * @example subjectPhrase('What was the final cost of Project Borealis?') // 'Project Borealis'
 */
export function subjectPhrase(text: string): string | undefined {
  const quoted = QUOTED.exec(text);
  QUOTED.lastIndex = 0;
  if (quoted?.[1]) return quoted[1];
  if (hasCjk(text)) {
    const found = cjkSubject(text);
    if (found) return found;
  }
  for (const match of text.matchAll(EN_NAME)) {
    const words = match[0].split(/\s+/);
    while (words.length > 0 && NOT_NAMES.has((words[0] ?? '').toLowerCase())) words.shift();
    const name = words.join(' ');
    if (name.length >= 2 && !/^\p{Lu}$/u.test(name)) return name;
  }
  return undefined;
}

function cjkSubject(text: string): string | undefined {
  const words = tagWords(text);
  const anchor = (i: number) => {
    const w = words[i];
    if (!w || isStopword(w.word)) return false;
    if (ANCHOR_TAGS.has(w.tag) && /[\p{L}\p{N}]{2,}/u.test(w.word)) return true;
    // A pronoun before a head noun (哪个项目, 这个项目) names nothing.
    return (
      HAN_WORD.test(w.word) &&
      w.tag !== 'r' &&
      NAME_HEADS.test(words[i + 1]?.word ?? '') &&
      !NAME_HEADS.test(w.word)
    );
  };
  // A name a preposition governs ("在中国，主要分布在哪些地方", "对过敏的反应") says where or to what, not what
  // the question is about: such a question names nothing of its own, and a follow-up after it keeps
  // the conversation's subject.
  const first = words.findIndex((_, i) => anchor(i) && words[i - 1]?.tag !== 'p');
  if (first < 0) return undefined;
  let end = first + 1;
  for (;;) {
    if (NAME_HEADS.test(words[end]?.word ?? '')) end += 1;
    else if (anchor(end)) end += 1;
    else if (
      [...(words[end]?.word ?? '')].length === 1 &&
      anchor(end + 1) &&
      !isStopword(words[end]?.word ?? '')
    )
      end += 2;
    else break;
  }
  // Common nouns after the name belong to what is asked about ("中国人民大学外语类保送生"), except the
  // last one before a verb: that is what is asked of it ("...文学院院长是谁").
  let nouns = end;
  while (COMMON_NOUN.test(words[nouns]?.tag ?? '') && !isStopword(words[nouns]?.word ?? '')) nouns += 1;
  if (nouns > end && /^v/.test(words[nouns]?.tag ?? '')) nouns -= 1;
  end = nouns;
  let start = first;
  while (start > 0 && anchor(start - 1)) start -= 1;
  return words
    .slice(start, end)
    .map((w) => w.word)
    .join('');
}

/** jieba tags of words a subject's noun phrase is made of. */
const NOUN_TAGS = /^(?:n|nr|nrt|ns|nt|nz|x|eng|vn|i|j|l)$/;

/**
 * The longest run of nouns of a text (two characters or more, no stop word), when it names nothing
 * `subjectPhrase` finds: "来测试下我的颜值" -> "颜值"; in English its key words ("What is the main
 * goal?" -> "main goal"). The weaker subject a follow-up takes when no
 * question of the conversation names anything.
 *
 * @example nounPhrase('什么零食') // '零食'
 */
export function nounPhrase(text: string): string | undefined {
  if (!hasCjk(text)) {
    const words = keyTerms(text);
    return words.length > 0 ? words.join(' ') : undefined;
  }
  let best = '';
  let run = '';
  for (const { word, tag } of [...tagWords(text), { word: '', tag: '' }]) {
    if (NOUN_TAGS.test(tag) && !isStopword(word) && /[\p{L}\p{N}]/u.test(word)) run += word;
    else {
      if ([...run].length > [...best].length) best = run;
      run = '';
    }
  }
  return [...best].length >= 2 ? best : undefined;
}
