/**
 * A file's size for people, `7.6 MB`: decimal units (1 kB = 1000 bytes, as browsers and file
 * managers show downloads), one decimal below 100, the unit's words from the catalogs and the
 * number as the interface language writes it (`7,6 MB` in German).
 */
import type { Translator } from './translate.ts';

const units = [
  ['size.GB', 1e9],
  ['size.MB', 1e6],
  ['size.kB', 1e3],
] as const;

export function sizeText({ t }: Pick<Translator, 't'>, bytes: number): string {
  for (const [key, unit] of units) {
    if (bytes < unit) continue;
    const value = bytes / unit;
    return t(key, { size: value < 100 ? Math.round(value * 10) / 10 : Math.round(value) });
  }
  return t('size.bytes', { count: bytes }, bytes);
}
