/** Figures as the pages show them. */
export function percent(part: number, total: number): number {
  return total > 0 ? Math.floor((part / total) * 1000) / 10 : 0;
}

export function formatNumber(value: number): string {
  return value.toLocaleString('en');
}

/** `2026-11-22T04:15:00.123456Z` → `2026-11-22 04:15 UTC`; anything unparsable stays as it came. */
export function formatTimestamp(timestamp: string | null | undefined): string {
  if (!timestamp) return 'never';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(timestamp);
  return match ? `${match[1]} ${match[2]} UTC` : timestamp;
}

/** The first line of a text, shortened, for tables that list many strings. */
export function excerpt(text: string, length = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

// Weblate's gettext-style variants that have a BCP 47 script subtag.
const variantScripts: Record<string, string> = { latin: 'Latn', cyrillic: 'Cyrl' };

/** A Weblate language code as a BCP 47 tag for `lang` (`pt_BR` → `pt-BR`, `sr@latin` → `sr-Latn`). */
export function languageTag(code: string): string {
  const [base = '', variant] = code.split('@');
  const script = variant === undefined ? undefined : variantScripts[variant];
  const tag = base.replace(/_/g, '-') + (script ? `-${script}` : '');
  return /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : 'und';
}

/** Labels are strings on some servers and `{name, color}` objects on others. */
export function labelText(label: unknown): string {
  if (typeof label === 'string') return label;
  if (label && typeof label === 'object' && 'name' in label && typeof label.name === 'string') return label.name;
  return JSON.stringify(label) ?? '';
}
