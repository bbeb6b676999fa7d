import { OFFLINE_CHAT_LABEL, OFFLINE_EMBEDDER_LABEL, OFFLINE_LABEL } from '#shared/llm/offline-labels.ts';
import { i18n } from '../i18n/index.ts';
import { ApiError } from './api-error.ts';
import { formatBytes, formatNumber } from './format.ts';
import type { ServerError } from './types.ts';

/**
 * Text the server writes, said in the page's language. The server sends codes (an error's `code`,
 * its `reason` and `params`, a progress `stage`, a counter's name, a document's failure `code`) with
 * an English message for API and CLI users; the page looks each code up in its catalogues and
 * falls back to the server's words only for a code it does not know. Text written for the reader of
 * an answer (the answer, its notices, the reasoning) is in the question's language, chosen by the server.
 */

function known(key: string): boolean {
  return i18n.global.te(key, 'en');
}

/** A reason's params as the page shows them: sizes in bytes as sizes, field paths by their name. */
function shownParams(params: ServerError['params'] = {}): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === 'bytes' && typeof value === 'number') shown[name] = formatBytes(value);
    else if (name === 'field') shown[name] = fieldName(String(value));
    else shown[name] = typeof value === 'number' ? formatNumber(value) : value;
  }
  return shown;
}

/** `body.question` -> "问题": the input's last named part, in the catalogue when it is there. */
function fieldName(path: string): string {
  const name =
    path
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? path;
  return known(`fields.${name}`) ? i18n.global.t(`fields.${name}`) : name;
}

/**
 * An API error in the page's language: its `reason` (with `params`) when the catalogue has it, else
 * the sentence for its `code` with the server's message as the detail, else the message.
 *
 * @example serverErrorText({ code: 'validation_failed', message: '…', reason: 'empty', params: { field: 'body.question' } }) // '问题不能为空。'
 */
export function serverErrorText(error: ServerError): string {
  const { t } = i18n.global;
  if (error.reason && known(`reasons.${error.reason}`))
    return t(`reasons.${error.reason}`, shownParams(error.params));
  return known(`errors.${error.code}`) ? t(`errors.${error.code}`, { detail: error.message }) : error.message;
}

/** Any thrown value in the page's language: an ApiError through its code, else its message. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return serverErrorText(error);
  return error instanceof Error ? error.message : String(error);
}

/** A version's counter by its name (`summarizedSections` -> "已摘要章节"); an unknown one in words. */
export function statName(key: string): string {
  return known(`stats.${key}`) ? i18n.global.t(`stats.${key}`) : key.replace(/([A-Z])/g, ' $1').toLowerCase();
}

/** A progress stage (`retrieve`, `judge_2`) in the page's words; an unknown one says the server's message. */
export function stageText(stage: string, message?: string): string {
  const key = `answer.stage.${stage.replace(/_\d+$/, '')}`;
  return known(key) ? i18n.global.t(key) : (message ?? stage);
}

/**
 * The models' description (`/api/status` providers.label, an answer's `provider`): its offline parts
 * in the page's words, a model's name as it is.
 */
export function providerText(label: string): string {
  const { t } = i18n.global;
  if (label === OFFLINE_LABEL) return t('providers.offline');
  return label
    .replace(OFFLINE_CHAT_LABEL, t('providers.offlineChat'))
    .replace(OFFLINE_EMBEDDER_LABEL, t('providers.offlineEmbedder'));
}

/** A document's or version's failure by its code (`unsupported_document`, ...); empty for none. */
export function failureText(code: string | null | undefined): string {
  if (!code) return '';
  return i18n.global.t(known(`failures.${code}`) ? `failures.${code}` : 'failures.failed');
}
