import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFLINE_CHAT_LABEL, OFFLINE_LABEL } from '#shared/llm/offline-labels.ts';
import { en } from '../../../web/src/i18n/en.ts';
import { i18n } from '../../../web/src/i18n/index.ts';
import { ApiError } from '../../../web/src/lib/api-error.ts';
import {
  errorText,
  failureText,
  providerText,
  serverErrorText,
  stageText,
  statName,
} from '../../../web/src/lib/server-text.ts';

const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
const HAN = /\p{Script=Han}/u;
const LATIN_WORD = /[A-Za-z]{3,}/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every match of `pattern`'s first group across the server's sources. */
function serverLiterals(pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const file of sources(SHARED))
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) if (match[1]) found.add(match[1]);
  return [...found].sort();
}

describe('server text on the Chinese page', () => {
  beforeEach(() => {
    i18n.global.locale.value = 'zh-CN';
  });
  afterEach(() => {
    i18n.global.locale.value = 'en';
  });

  it('says a refused question in Chinese, from the reason and its params', () => {
    const empty = { code: 'validation_failed', message: 'body.question: question must not be empty' };
    expect(serverErrorText({ ...empty, reason: 'empty', params: { field: 'body.question' } })).toBe(
      '问题不能为空。',
    );
    expect(
      serverErrorText({
        code: 'validation_failed',
        message: 'body.version: Too small: expected number to be >0',
        reason: 'not_above',
        params: { field: 'body.version', minimum: 0 },
      }),
    ).toBe('版本必须大于 0。');
    expect(
      errorText(
        new ApiError(429, 'rate_limited', 'Too many questions: ...; try again in 12 s', {
          reason: 'retry_after',
          params: { seconds: 12 },
        }),
      ),
    ).toBe('提问过于频繁，请 12 秒后再试。');
    expect(
      serverErrorText({
        code: 'payload_too_large',
        message: 'big.md is larger than 1048576 bytes (limits.maxFileBytes); nothing was stored',
        reason: 'file_too_large',
        params: { bytes: 1_048_576 },
      }),
    ).toMatch(/^文件超过服务器接受的上限 1(\.0)?\s?MB/);
  });

  it('falls back to the code’s sentence with the server’s message for a reason it does not know', () => {
    expect(
      serverErrorText({ code: 'not_found', message: 'No document with id x', reason: 'new_reason' }),
    ).toBe('未找到：No document with id x');
    expect(serverErrorText({ code: 'something_new', message: 'As the server says' })).toBe(
      'As the server says',
    );
  });

  it('has a sentence for every error code the server sends', () => {
    const codes = [
      ...serverLiterals(/\bcode: '([a-z_]+)'/g),
      ...serverLiterals(/super\(\s*'([a-z_]+)'/g),
      ...serverLiterals(/refuse\(\s*c,\s*'([a-z_]+)'/g),
    ];
    expect(codes).toContain('validation_failed');
    expect(codes).toContain('cross_origin');
    expect(codes.filter((code) => !(code in en.errors))).toEqual([]);
  });

  it('names every progress stage the server streams in Chinese', () => {
    const stages = [
      ...serverLiterals(/type: 'progress',\s*data: \{ stage: '([a-z0-9_]+)'/g),
      ...serverLiterals(/stage: '([a-z0-9_]+)',\s*(?:current|message)/g),
      ...serverLiterals(/stage: `([a-z0-9]+)_\$\{/g).map((s) => `${s}_1`),
    ];
    expect(stages).toEqual(expect.arrayContaining(['retrieve', 'decompose', 'judge_1', 'agent']));
    for (const stage of stages) expect(stageText(stage, 'English words'), stage).toMatch(HAN);
  });

  it('names a version’s counters in Chinese', () => {
    // The counters docs/lifecycle.md documents, each in backquotes.
    const documented = readFileSync(
      fileURLToPath(new URL('../../../docs/lifecycle.md', import.meta.url)),
      'utf8',
    )
      .split('stats: ')[1]
      ?.split('\n\n')[0]
      ?.match(/`([A-Za-z]+)`/g)
      ?.map((k) => k.slice(1, -1));
    expect(documented).toContain('summarizedSections');
    for (const key of documented ?? []) expect(statName(key), key).toMatch(HAN);
    expect(statName('someNewCounter')).toBe('some new counter');
  });

  it('says the offline providers and a failure’s kind in Chinese', () => {
    expect(providerText(OFFLINE_LABEL)).not.toMatch(LATIN_WORD);
    expect(providerText(`${OFFLINE_CHAT_LABEL} / openai nomic-embed-text (768)`)).toMatch(
      /^离线回答.* \/ openai nomic-embed-text \(768\)$/,
    );
    expect(failureText('unsupported_document')).toBe('无法读取此文件。');
    expect(failureText('a_new_kind')).toBe('索引失败。');
    expect(failureText(null)).toBe('');
  });
});
