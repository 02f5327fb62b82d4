import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openCrawlState } from '../../crawler/queue/state.ts';
import { UnitSpool } from '../../crawler/queue/unit-spool.ts';
import { UnitsStrategy } from '../../crawler/units.ts';
import { useTempFolders } from '../helpers/temp.ts';

// A translation that a page boundary of /api/units/ cuts is written as its last piece arrives,
// not after the last request (docs/crawl.md, "Units fetched again").
const tempFolder = useTempFolders('tmsnap-cut-', 'all');
const apiRoot = new URL('http://h/api/');
const translation = (code: string) => `http://h/api/translations/p/c/${code}/`;
const unit = (id: number, code: string) => ({ id, translation: translation(code), source: [`s${id}`] });
const task = { url: 'http://h/api/units/', type: 'units' as const, phase: 2 };
let folder: string;

function strategy(dir = folder, writesWhole = true): { units: UnitsStrategy; spool: UnitSpool } {
  mkdirSync(dir, { recursive: true });
  const { queue, translations } = openCrawlState(join(dir, 'journal.ndjson'), '2026-01-01T00:00:00.000Z', apiRoot);
  for (const [code, total] of [
    ['de', 2],
    ['fr', 4],
    ['it', 3],
  ] as const) {
    translations.add(translation(code), 'p');
    translations.setTotal(translation(code), total);
  }
  const spool = new UnitSpool(join(dir, 'spool'));
  return { units: new UnitsStrategy(apiRoot, queue, translations, spool, writesWhole), spool };
}

const none = () => false;
const written = (whole: Map<string, unknown[]>) =>
  new Map([...whole].map(([url, units]) => [url, (units as { id: number }[]).map((entry) => entry.id).sort()]));

beforeEach(async () => {
  folder = await tempFolder();
});

describe('UnitsStrategy.takePage and translations cut by a page boundary', () => {
  it('answers a cut translation whole from the page holding its last units, in either page order', () => {
    for (const order of [
      [0, 1, 2],
      [2, 1, 0],
    ]) {
      const { units } = strategy(join(folder, order.join('')));
      const pages = [
        [unit(1, 'de'), unit(2, 'de'), unit(3, 'fr')],
        [unit(4, 'fr'), unit(5, 'fr')],
        [unit(6, 'fr'), unit(7, 'it'), unit(8, 'it'), unit(9, 'it')],
      ];
      const answered = new Map<string, number[]>();
      const each = order.map((at) => written(units.takePage({ ...task, page: at > 0 }, pages[at]!, none).whole));
      for (const whole of each) for (const [url, ids] of whole) answered.set(url, ids);
      expect(answered).toEqual(
        new Map([
          [translation('de'), [1, 2]],
          [translation('fr'), [3, 4, 5, 6]],
          [translation('it'), [7, 8, 9]],
        ]),
      );
      // French is answered by the page that completed it, not before.
      expect(each.map((whole) => whole.has(translation('fr')))).toEqual([false, false, true]);
    }
  });

  it('counts a spool left by the run it resumes, and leaves a translation with an id twice to the end phase', () => {
    const first = strategy();
    expect(first.units.takePage(task, [unit(3, 'fr'), unit(4, 'fr')], none).whole.size).toBe(0);
    // The next run: the spool on disk holds French's first two units.
    const resumed = strategy();
    expect(written(resumed.units.takePage({ ...task, page: true }, [unit(5, 'fr'), unit(6, 'fr')], none).whole)).toEqual(
      new Map([[translation('fr'), [3, 4, 5, 6]]]),
    );
    // Four units of which one twice: not the translation's four, so spooled.
    const twice = strategy(join(folder, 'twice'));
    twice.units.takePage(task, [unit(3, 'fr'), unit(4, 'fr')], none);
    expect(twice.units.takePage({ ...task, page: true }, [unit(4, 'fr'), unit(5, 'fr')], none).whole.size).toBe(0);
    expect(twice.spool.read(translation('fr')).length).toBe(3);
  });

  it('spools everything when whole translations may not be written (an incremental crawl)', () => {
    const { units, spool } = strategy(folder, false);
    expect(units.takePage(task, [unit(1, 'de'), unit(2, 'de'), unit(3, 'fr')], none).whole.size).toBe(0);
    expect(units.takePage(task, [unit(4, 'fr'), unit(5, 'fr'), unit(6, 'fr')], none).whole.size).toBe(0);
    expect(spool.read(translation('fr')).length).toBe(4);
  });
});
