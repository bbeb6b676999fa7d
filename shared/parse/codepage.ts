/** Windows code pages whose WHATWG encoding label differs from `windows-<n>`. */
const LABELS: Record<number, string> = {
  936: 'gbk',
  54936: 'gb18030',
  950: 'big5',
  932: 'shift_jis',
  949: 'euc-kr',
  874: 'windows-874',
  20127: 'us-ascii',
  28591: 'iso-8859-1',
  65001: 'utf-8',
  1200: 'utf-16le',
  1201: 'utf-16be',
};

/**
 * The `TextDecoder` label of a Windows code page (as RTF's `\ansicpg` and Outlook's code page
 * properties give it), or undefined when Node cannot decode it.
 *
 * @example codepageLabel(936) // 'gbk'
 */
export function codepageLabel(codepage: number | undefined): string | undefined {
  if (codepage === undefined || !Number.isInteger(codepage)) return undefined;
  const label =
    LABELS[codepage] ?? (codepage >= 1250 && codepage <= 1258 ? `windows-${codepage}` : undefined);
  if (!label) return undefined;
  try {
    new TextDecoder(label);
    return label;
  } catch {
    return undefined;
  }
}
