import { watch } from 'vue';
import { createI18n } from 'vue-i18n';
import { en } from './en.ts';
import { zhCN } from './zh-CN.ts';

/** The page's languages, in the order the switch lists them. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

const STORAGE_KEY = 'dropqa.locale';

/**
 * The language to start in: the one chosen before (remembered in localStorage), else the first of the
 * browser's languages the page speaks (any Chinese -> zh-CN, any English -> en), else English.
 */
export function initialLocale(stored: string | null, browser: readonly string[]): Locale {
  if (stored && (LOCALES as readonly string[]).includes(stored)) return stored as Locale;
  for (const tag of browser) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

/** The browser globals used here; absent under Node, where the unit tests load the catalogues. */
const browser = globalThis as unknown as {
  localStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  navigator?: { languages: readonly string[] };
  document?: { documentElement: { lang: string } };
};

function storedLocale(): string | null {
  try {
    return browser.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export const i18n = createI18n({
  legacy: false,
  locale: initialLocale(storedLocale(), browser.navigator?.languages ?? []),
  fallbackLocale: 'en',
  messages: { en, 'zh-CN': zhCN },
  missingWarn: false,
  fallbackWarn: false,
});

/** The page's language now. */
export function currentLocale(): Locale {
  return i18n.global.locale.value as Locale;
}

/** Switches the page's language and remembers the choice for the next visit. */
export function setLocale(locale: Locale): void {
  i18n.global.locale.value = locale;
  try {
    browser.localStorage?.setItem(STORAGE_KEY, locale);
  } catch {
    // Private windows may refuse storage: the switch still holds for this page.
  }
}

// `<html lang>` follows the page's language, so screen readers pick the right voice.
watch(
  () => i18n.global.locale.value,
  (locale) => {
    if (browser.document) browser.document.documentElement.lang = locale;
  },
  { immediate: true },
);
