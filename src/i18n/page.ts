/**
 * The interface language of the build (`--ui-lang`, site-model/page-settings.ts) as the pages use it: messages,
 * numbers, percentages and dates (docs/site.md, "Interface languages").
 */
import type { UiLanguage } from '../../site-model/page-settings.ts';
import { perBuild } from '../data/build-input.ts';
import { settings } from '../data/settings.ts';
import { formatTimestamp, isoDatetime } from '../utils/format.ts';
import { html, type Html } from '../utils/html.ts';
import { uiTranslator, type MessageKey } from './index.ts';
import { bidi, splitMessage, type Translator } from './translate.ts';

export interface PageUi extends Translator {
  /** A server timestamp for people: `2026-11-22 04:15 UTC` in English, the language's own form otherwise. */
  date(timestamp: string | null | undefined): string;
  /** `date` inside `<time datetime>`, for pages rendered as strings (src/utils/html.ts). */
  timeHtml(timestamp: string | null | undefined): Html;
  /**
   * `date` to the minute in UTC, without the zone and as plain text (no `<time datetime>`): a
   * unit page repeats it a hundred times and says UTC once (issue 14, docs/site.md "One page per string").
   */
  utcMinute(timestamp: string | null | undefined): string;
  /**
   * A message whose placeholders hold markup: the text parts and the values in order, for Astro
   * or `html` to render (text escaped, markup as it is).
   */
  parts(key: MessageKey, values: Readonly<Record<string, unknown>>, n?: number): unknown[];
}

export function pageUi(lang: UiLanguage): PageUi {
  const base = uiTranslator(lang);
  const minuteOptions: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  };
  // Unit pages say "UTC" once per page, so their times leave the zone out (docs/site.md).
  const dates = new Intl.DateTimeFormat(lang, { ...minuteOptions, timeZoneName: 'short' });
  const minutes = new Intl.DateTimeFormat(lang, minuteOptions);
  const date = (timestamp: string | null | undefined): string => {
    // No time to show (a translation nothing changed yet): a dash, as empty table cells have (issue 28).
    if (!timestamp) return base.t('time.none');
    // English keeps the ISO-like form the site always had: the same in every English-speaking region.
    if (lang === 'en') return formatTimestamp(timestamp);
    const iso = isoDatetime(timestamp);
    return iso === undefined ? timestamp : dates.format(new Date(iso));
  };
  return {
    ...base,
    date,
    timeHtml(timestamp) {
      const datetime = isoDatetime(timestamp);
      return datetime ? html`<time datetime="${datetime}">${date(timestamp)}</time>` : html`${date(timestamp)}`;
    },
    utcMinute(timestamp) {
      const iso = isoDatetime(timestamp);
      // In UTC whatever offset the server sent: the page says UTC.
      const utc = iso === undefined ? undefined : new Date(iso);
      if (utc === undefined || Number.isNaN(utc.getTime())) return date(timestamp);
      return lang === 'en' ? utc.toISOString().slice(0, 16).replace('T', ' ') : minutes.format(utc);
    },
    parts(key, values, n) {
      return splitMessage(base.message(key, n)).flatMap((part, index) => {
        if (index % 2 === 0) return [part];
        const value = values[part];
        const shown = typeof value === 'number' ? base.number(value) : (value ?? `{${part}}`);
        // Right to left, a value is isolated as t() isolates it (translate.ts, `bidi`).
        return base.dir === 'rtl' && value !== undefined ? [bidi.fsi, shown, bidi.pdi] : [shown];
      });
    },
  };
}

/** The build's interface language, English unless `--ui-lang` chose another. */
export const ui: () => PageUi = perBuild(() => {
  const lang = settings().uiLang;
  return pageUi(lang === 'de' || lang === 'ar' ? lang : 'en');
});
