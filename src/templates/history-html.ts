/**
 * The history chart of a project, component, translation or language as a string: an SVG drawn
 * at build time (no script), with the figures repeated in a table for screen readers and print.
 * `HistoryChart.astro` renders it for Astro's pages and the bulk writer for the translation pages
 * it writes outside Astro (docs/site.md, "Pages written outside Astro"), so both are one markup;
 * its style is in `assets/site.css`. Attribute values are escaped as Astro escapes them (`attr`).
 */
import { chartOf } from '../../archive/chart.ts';
import type { History } from '../../archive/history.ts';
import { archivePaths, relativeHref, type SitePath } from '../../site-model/paths.ts';
import type { PageUi } from '../i18n/page.ts';
import { attr } from '../layouts/frame.ts';
import { html, type Html } from '../utils/html.ts';

export type HistoryKind = 'project' | 'component' | 'translation' | 'language';

const seriesBy: Record<HistoryKind, keyof Omit<History, 'snapshots'>> = {
  project: 'projects',
  component: 'components',
  translation: 'translations',
  language: 'languages',
};

/**
 * `path` is the page the chart is on (its links are relative); `subject` a project slug, component
 * path, translation path or language code; `emptyIsComplete` whether the server counts it 100%
 * translated when empty (archive/chart.ts).
 */
export function historyChartHtml(all: History, path: SitePath, kind: HistoryKind, subject: string, emptyIsComplete: boolean, pageUi: PageUi): Html {
  const { t, number, percent } = pageUi;
  const series = all[seriesBy[kind]].get(subject) ?? [];
  const chart = chartOf(all.snapshots, series, emptyIsComplete);
  const id = `history-${kind}`;
  const heading = html`<section class="history"${attr('aria-labelledby', id)}> <h2${attr('id', id)}>${t('history.heading')}</h2> `;
  if (chart.points.length < 2) return html`${heading}<p class="muted">${t(chart.points.length === 1 ? 'history.one' : 'history.none')}</p> </section>`;
  const latest = all.snapshots.length >= 2 ? all.snapshots.slice(-2) : undefined;
  // The chart's words in the interface language; archive/chart.ts gives only numbers and ISO dates.
  const [firstPoint, lastPoint] = [chart.points[0]!, chart.points.at(-1)!];
  const summary = t(
    'history.summary',
    {
      first: percent(firstPoint.translated.percent),
      firstDay: firstPoint.label,
      last: percent(lastPoint.translated.percent),
      lastDay: lastPoint.label,
      count: chart.points.length,
      fuzzy: percent(lastPoint.fuzzy.percent),
    },
    chart.points.length,
  );
  const n = (value: number) => String(value);
  const yTicks = chart.yTicks.map(
    (tick) =>
      html`<g class="tick"> <line${attr('x1', n(chart.plot.left))}${attr('x2', n(chart.plot.right))}${attr('y1', n(tick.y))}${attr('y2', n(tick.y))}></line> <text${attr('x', n(chart.plot.left - 6))}${attr('y', n(tick.y + 4))} text-anchor="end">${percent(tick.value)}</text> </g>`,
  );
  const xTicks = chart.xTicks.map(
    (tick, at) =>
      html`<text class="tick"${attr('x', n(tick.x))}${attr('y', n(chart.height - 8))}${attr('text-anchor', chart.xTicks.length === 1 ? 'middle' : at === 0 ? 'start' : 'end')}>${tick.label}</text>`,
  );
  const dots = chart.points.map(
    (point) =>
      html`<circle class="dot translated"${attr('cx', n(point.x))}${attr('cy', n(point.translated.y))} r="3"><title>${t('history.point', { id: point.id, percent: percent(point.translated.percent), total: point.total })}</title></circle>`,
  );
  const rows = chart.points.map(
    (point) =>
      html`<tr><td><code>${point.id}</code></td><td class="num">${number(point.total)}</td><td class="num">${percent(point.translated.percent)}</td><td class="num">${percent(point.fuzzy.percent)}</td></tr>`,
  );
  const latestLink =
    latest && html` · <a${attr('href', relativeHref(path, archivePaths.changesBetween(latest[0]!.id, latest[1]!.id)))}>${t('history.latest')}</a>`;
  return html`${heading}<figure> <svg class="history-chart"${attr('viewBox', `0 0 ${chart.width} ${chart.height}`)} role="img"${attr('aria-labelledby', `${id}-title ${id}-desc`)}${attr('data-points', n(chart.points.length))}> <title${attr('id', `${id}-title`)}>${t('history.chartTitle')}</title> <desc${attr('id', `${id}-desc`)}>${summary}</desc> ${yTicks} ${xTicks} <path class="line translated"${attr('d', chart.translatedPath)}></path> <path class="line fuzzy"${attr('d', chart.fuzzyPath)}></path> ${dots} </svg> <figcaption> <span class="key translated">${t('legend.translated')}</span> <span class="key fuzzy">${t('legend.fuzzy')}</span> ${latestLink} </figcaption> </figure>\n    <details> <summary>${t('history.figures')}</summary> <div class="table-wrap"> <table> <thead><tr><th scope="col">${t('col.snapshot')}</th><th scope="col" class="num">${t('col.strings')}</th><th scope="col" class="num">${t('col.translated')}</th><th scope="col" class="num">${t('col.needsEditing')}</th></tr></thead> <tbody> ${rows} </tbody> </table> </div> </details> </section>`;
}
