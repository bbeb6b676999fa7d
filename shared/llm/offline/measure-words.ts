/**
 * The names of currencies and units of measure, from the ICU data Node ships (`Intl`): every ISO
 * 4217 currency's code and its name in English and Chinese, singular and plural, with the last word
 * of a longer name ("US dollars" gives "dollar" too), and every unit `Intl.NumberFormat` formats, in
 * long form, in both languages ("kilograms", "千克"). Lower case, NFKC. Built on first use.
 */
let words: Set<string> | undefined;

const LOCALES = ['en', 'zh'];
/** One and two: singular and plural names. */
const COUNTS = [1, 2];

function namesOf(options: Intl.NumberFormatOptions, part: 'currency' | 'unit'): string[] {
  const names: string[] = [];
  for (const locale of LOCALES) {
    // Whole numbers: "1.00 euros" would be plural.
    const format = new Intl.NumberFormat(locale, {
      ...options,
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    });
    for (const count of COUNTS) {
      const name = format
        .formatToParts(count)
        .filter((p) => p.type === part)
        .map((p) => p.value)
        .join('')
        .normalize('NFKC')
        .toLowerCase()
        .trim();
      if (!name) continue;
      names.push(name, name.split(/\s+/).at(-1) ?? name);
    }
  }
  return names;
}

function measureWords(): Set<string> {
  if (words) return words;
  const all = new Set<string>();
  for (const currency of Intl.supportedValuesOf('currency')) {
    all.add(currency.toLowerCase());
    for (const name of namesOf({ style: 'currency', currency, currencyDisplay: 'name' }, 'currency'))
      all.add(name);
  }
  for (const unit of Intl.supportedValuesOf('unit')) {
    all.add(unit);
    for (const name of namesOf({ style: 'unit', unit, unitDisplay: 'long' }, 'unit')) all.add(name);
  }
  words = all;
  return all;
}

/**
 * True for the name of a currency or unit of measure ("euro", "euros", "EUR", "欧元", "kilograms"):
 * the measure of an amount, not a subject a document is about.
 *
 * @example isMeasureWord('Euros') // true; isMeasureWord('budget') // false
 */
export function isMeasureWord(word: string): boolean {
  return measureWords().has(word.normalize('NFKC').toLowerCase());
}
