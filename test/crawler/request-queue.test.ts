import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openCrawlState } from '../../crawler/queue/state.ts';
import { UnitSpool } from '../../crawler/queue/unit-spool.ts';
import { useTempFolders } from '../helpers/temp.ts';

const tempFolder = useTempFolders('tmsnap-queue-', 'all');
const root = new URL('http://h/api/');
let folder: string;
beforeAll(async () => {
  folder = await tempFolder();
});

describe("the crawl's state (queue/state.ts)", () => {
  it('de-duplicates by URL, runs lower phases first, and every part replays the one journal after a kill', () => {
    const path = join(folder, 'journal.ndjson');
    const { queue, statistics, problems, translations } = openCrawlState(path, '2026-01-01T00:00:00.000Z', root);
    expect(queue.add({ url: 'http://h/api/units/', type: 'units', phase: 2 })).toBe(true);
    expect(queue.add({ url: 'http://h/api/projects/', type: 'list', phase: 1 })).toBe(true);
    expect(queue.add({ url: 'http://h/api/projects/', type: 'list', phase: 1 })).toBe(false);
    expect(queue.next(Number.POSITIVE_INFINITY, () => false)?.url).toBe('http://h/api/projects/');
    expect(queue.next(1, (task) => task.url.endsWith('projects/'))).toBeUndefined();
    queue.done('http://h/api/projects/', { made: 2, minimum: 1, requests: 'lists' });
    expect([statistics.made, statistics.minimum, statistics.byKind.get('lists')]).toEqual([2, 1, { made: 2, minimum: 1 }]);
    translations.add('http://h/api/translations/p/c/de/', 'p');
    translations.setTotal('http://h/api/translations/p/c/de/', 7);
    problems.problem({ url: 'http://h/api/x/', field: 'name', reason: 'bad' });
    problems.deny({ kind: 'projects/*/repository/', url: 'http://h/api/projects/p/repository/', status: 403, reason: 'no' });
    problems.skip('http://h/api/languages/xx/statistics/');
    // A kill in the middle of an append leaves half a line.
    appendFileSync(path, '{"add":{"url":"http://h/api/tor');

    const resumed = openCrawlState(path, '2030-01-01T00:00:00.000Z', root);
    expect(resumed.started).toBe('2026-01-01T00:00:00.000Z');
    expect(resumed.queue.pendingCount).toBe(1);
    // A task replayed carries its parsed path, as one just queued does; the journal holds only what it fetches.
    expect(resumed.queue.next(Number.POSITIVE_INFINITY, () => false)).toEqual({
      url: 'http://h/api/units/',
      type: 'units',
      phase: 2,
      path: 'units/',
      parsed: { kind: 'collection', collection: 'units' },
    });
    expect(readFileSync(path, 'utf8')).not.toContain('parsed');
    expect(resumed.queue.add({ url: 'http://h/api/projects/', type: 'list', phase: 1 })).toBe(false);
    expect([resumed.statistics.made, resumed.statistics.minimum, resumed.statistics.byKind.get('lists')]).toEqual([2, 1, { made: 2, minimum: 1 }]);
    expect(resumed.translations.projects.get('http://h/api/translations/p/c/de/')).toBe('p');
    expect(resumed.translations.totals.get('http://h/api/translations/p/c/de/')).toBe(7);
    expect([...resumed.translations.ofComponent('p', 'c')]).toEqual([['http://h/api/translations/p/c/de/', 'de']]);
    expect([resumed.translations.usesLanguage('de'), resumed.translations.usesLanguage('fr')]).toEqual([true, false]);
    expect(resumed.problems.problems).toEqual([{ url: 'http://h/api/x/', field: 'name', reason: 'bad' }]);
    expect([...resumed.problems.denied.keys()]).toEqual(['projects/*/repository/']);
    expect(resumed.problems.skippedResources()).toEqual([
      { kind: 'languages/*/statistics/', reason: "no translation in the crawl's scope is in this language", urls: ['http://h/api/languages/xx/statistics/'] },
    ]);
    resumed.queue.add({ url: 'http://h/api/changes/', type: 'changes', phase: 2 });
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .every((line) => line === '' || JSON.parse(line)),
    ).toBe(true);
  });

  it("replays a journal in its first format's words, and keeps writing them", () => {
    const path = join(folder, 'first-format.ndjson');
    appendFileSync(path, '{"started":"2026-01-01T00:00:00.000Z"}\n{"add":{"url":"http://h/api/projects/","kind":"records","phase":1}}\n');
    const { queue } = openCrawlState(path, '2030-01-01T00:00:00.000Z', root);
    expect(queue.next(Number.POSITIVE_INFINITY, () => false)?.type).toBe('list');
    queue.add({ url: 'http://h/api/languages/', type: 'list', phase: 1 });
    expect(readFileSync(path, 'utf8').split('\n').at(-2)).toBe('{"add":{"url":"http://h/api/languages/","kind":"records","phase":1}}');
  });

  it('refuses a journal that is not one, saying what to do', () => {
    const path = join(folder, 'foreign.ndjson');
    appendFileSync(path, '{"what":1}\n');
    expect(() => openCrawlState(path, '2026-01-01T00:00:00.000Z', root)).toThrow('delete the .partial snapshot to start over');
  });
});

describe('UnitSpool', () => {
  it('keeps each unit once per translation, exact 64-bit hashes, and survives a torn batch', () => {
    const spool = new UnitSpool(join(folder, 'spool'));
    const unit = (id: number) => ({ id, id_hash: -9223372036854775807n, translation: 't' });
    spool.append(
      new Map([
        ['t1', [unit(1), unit(2)]],
        ['t2', [unit(3)]],
      ]),
    );
    // A kill in the middle of a batch: the page is fetched again and appended whole.
    appendFileSync(join(folder, 'spool', `${createHash('sha256').update('t1').digest('hex')}.ndjson`), '{"id":5,"id_ha');
    spool.append(new Map([['t1', [unit(2), unit(4)]]]));
    expect(spool.read('t1')).toEqual([unit(1), unit(2), unit(4)]);
    expect(spool.read('t2')).toEqual([unit(3)]);
    expect(spool.read('../t3')).toEqual([]);
    spool.remove();
    expect(spool.read('t1')).toEqual([]);
  });
});
