import { weblatePercent } from '../../api/statistics.ts';
import { html, type Html } from './html.ts';

/** A translated share as the server writes it (an empty set: complete, unless review is on). */
export function percent(part: number, total: number, emptyIsComplete = true): number {
  return weblatePercent(part, total, emptyIsComplete);
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

/** Labels are strings on some servers and `{name, color}` objects on others. */
export function labelText(label: unknown): string {
  if (typeof label === 'string') return label;
  if (label && typeof label === 'object' && 'name' in label && typeof label.name === 'string') return label.name;
  return JSON.stringify(label) ?? '';
}

/** A timestamp as a valid `<time datetime>` value (`2026-11-22T04:15:00Z`), or undefined when it is not one. */
export function isoDatetime(timestamp: string | null | undefined): string | undefined {
  if (!timestamp) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(:\d{2})?)(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(timestamp);
  if (!match) return undefined;
  // HTML allows at most three digits of a second's fraction; servers send six.
  return `${match[1]}T${match[2]}${match[4]?.slice(0, 4) ?? ''}${match[5] ?? 'Z'}`;
}

/** `formatTimestamp` inside a `<time datetime>` element, for pages rendered as strings (html.ts). */
export function timeHtml(timestamp: string | null | undefined): Html {
  const datetime = isoDatetime(timestamp);
  return datetime ? html`<time datetime="${datetime}">${formatTimestamp(timestamp)}</time>` : html`${formatTimestamp(timestamp)}`;
}
