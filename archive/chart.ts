/**
 * The geometry of a history chart: translated and needs-editing percentages over time as SVG
 * path data and axis ticks. Numbers and ISO days only: the site's component puts them in words of
 * the interface language and turns them into markup, so no server string reaches the SVG unescaped.
 */
import type { Series } from './history.ts';
import { weblatePercent } from '../api/statistics.ts';
import { percent } from './figures.ts';

export interface ChartPoint {
  id: string;
  date: Date;
  /** Its date as the chart names it: the day, or finer when another snapshot shares it (`instantLabels`). */
  label: string;
  x: number;
  translated: { y: number; percent: number };
  fuzzy: { y: number; percent: number };
  total: number;
}

export interface Chart {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  points: ChartPoint[];
  /** SVG path data (`M x y L …`) of each line; gaps where the subject did not exist start a new `M`. */
  translatedPath: string;
  fuzzyPath: string;
  yTicks: { y: number; value: number }[];
  xTicks: { x: number; label: string }[];
}

const round = (value: number) => Math.round(value * 10) / 10;

export const chartSize = { width: 640, height: 220, left: 40, right: 12, top: 12, bottom: 28 };

/** Day label of a date, UTC (`2026-11-22`). */
export const dayLabel = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * Labels that tell the dates apart, in UTC: the day (`2026-11-22`) when each has its own, else
 * the minute (`2026-11-22 04:15`), else the second: two snapshots a minute apart are not shown
 * as one time (issue 35).
 */
export function instantLabels(dates: readonly Date[]): string[] {
  const instants = new Set(dates.map((date) => date.getTime())).size;
  const at = (length: number) => dates.map((date) => date.toISOString().slice(0, length).replace('T', ' '));
  for (const length of [10, 16]) {
    const labels = at(length);
    if (new Set(labels).size === instants) return labels;
  }
  return at(19);
}

/**
 * `emptyIsComplete`: whether an empty subject is 100% translated, as the server counts it (not
 * where review is on, nor for a language: docs/weblate-api.md, Values).
 */
export function chartOf(snapshots: readonly { id: string; date: Date }[], series: Series, emptyIsComplete: boolean): Chart {
  const { width, height, left, right, top, bottom } = chartSize;
  const plot = { left, top, right: width - right, bottom: height - bottom };
  const times = snapshots.map((snapshot) => snapshot.date.getTime());
  const first = Math.min(...times);
  const last = Math.max(...times);
  const span = last - first;
  // One snapshot (or all at one instant) sits in the middle rather than dividing by zero.
  const xOf = (time: number) => round(span === 0 ? (plot.left + plot.right) / 2 : plot.left + ((time - first) / span) * (plot.right - plot.left));
  const yOf = (value: number) => round(plot.bottom - (value / 100) * (plot.bottom - plot.top));

  const labels = instantLabels(snapshots.map((snapshot) => snapshot.date));
  const points: ChartPoint[] = [];
  let translatedPath = '';
  let fuzzyPath = '';
  let previousPresent = false;
  snapshots.forEach((snapshot, at) => {
    const figures = series[at];
    if (!figures) {
      previousPresent = false;
      return;
    }
    const translated = weblatePercent(figures.translated, figures.total, emptyIsComplete);
    const fuzzy = percent(figures.fuzzy, figures.total);
    const point: ChartPoint = {
      id: snapshot.id,
      date: snapshot.date,
      label: labels[at]!,
      x: xOf(snapshot.date.getTime()),
      translated: { y: yOf(translated), percent: translated },
      fuzzy: { y: yOf(fuzzy), percent: fuzzy },
      total: figures.total,
    };
    const command = previousPresent ? 'L' : 'M';
    translatedPath += `${translatedPath ? ' ' : ''}${command}${point.x} ${point.translated.y}`;
    fuzzyPath += `${fuzzyPath ? ' ' : ''}${command}${point.x} ${point.fuzzy.y}`;
    points.push(point);
    previousPresent = true;
  });

  const yTicks = [0, 25, 50, 75, 100].map((value) => ({ y: yOf(value), value }));
  const labelOf = (time: number) => labels[times.indexOf(time)]!;
  const xTicks = snapshots.length === 0 ? [] : [...new Map([first, last].map((time) => [time, { x: xOf(time), label: labelOf(time) }])).values()];
  return { width, height, plot, points, translatedPath, fuzzyPath, yTicks, xTicks };
}
