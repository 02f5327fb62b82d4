/**
 * `tmsnap dataset` (issue 37), proved by the engines themselves: an archive of three crawls of
 * the reference server with translator activity between them, written as SQLite and as
 * Parquet, read back with node:sqlite and DuckDB, and checked against the snapshots: the
 * translations' figures, the string versions against `tmsnap diff` between each pair, the
 * change log against the export, the docs' queries against credits and diff.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSnapshots } from '../../archive/compare.ts';
import { allTime, readCredits } from '../../archive/credits.ts';
import { translationEntries } from '../../archive/translations.ts';
import { writeTags } from '../../archive/tags.ts';
import { writeDataset, type DatasetFormat } from '../../dataset/write.ts';
import { tables, type TableName } from '../../dataset/schema.ts';
import { findEmails, redactEmails } from '../../site-model/privacy.ts';
import { publishedSnapshot } from '../../site-model/published-snapshot.ts';
import { exportRecords, openSnapshot } from '../../snapshot/index.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { randomActivity } from '../archive/activity.ts';
import { crawlInto, creditsModel, historyServer, redate } from '../archive/crawl.ts';
import { docQueries, ParquetDataset, SqliteDataset, type Plain } from './read.ts';

const dates = ['2026-10-01T04:00:00Z', '2026-10-20T04:00:00Z', '2026-11-02T04:00:00Z', '2026-11-15T04:00:00Z', '2026-12-01T04:00:00Z'].map(
  (text) => new Date(text),
);
const tableNames = Object.keys(tables) as TableName[];

/** Everything a dataset holds, table by table, read by the engine of its format. */
async function readAll(format: DatasetFormat, out: string): Promise<Record<string, Plain[]>> {
  if (format === 'sqlite') {
    const dataset = new SqliteDataset(out);
    try {
      return Object.fromEntries(tableNames.map((table) => [table, dataset.table(table)]));
    } finally {
      dataset.close();
    }
  }
  const dataset = await ParquetDataset.open(out);
  try {
    const result: Record<string, Plain[]> = {};
    for (const table of tableNames) result[table] = await dataset.table(table);
    return result;
  } finally {
    dataset.close();
  }
}

const write = (content: string, out: string, format: DatasetFormat) => writeDataset({ content, out, format, tmsnapVersion: '0.0.0-test' });

describe('tmsnap dataset', () => {
  const folder = useTempFolders('tmsnap-dataset-', 'all');
  let dir: string;
  let content: string;
  let ids: string[];
  const model = fixtureModel();
  let crawlNext: (at: number) => Promise<string>;
  let closeServer: () => Promise<void>;
  let server: Awaited<ReturnType<typeof historyServer>>;

  beforeAll(async () => {
    dir = await folder();
    content = join(dir, 'content');
    server = await historyServer(model);
    closeServer = () => server.close();
    crawlNext = async (at) => {
      if (at > 0) randomActivity(model, 41 + at, { unitMutations: 8, structural: at === 2 });
      return redate(content, await crawlInto(server, content), dates[at]!);
    };
    ids = [];
    for (const at of [0, 1, 2]) ids.push(await crawlNext(at));
    await writeTags(content, [{ name: 'v1.0', snapshot: ids[1]! }]);
  }, 120_000);
  afterAll(() => closeServer?.());

  it('writes SQLite and Parquet that node:sqlite and DuckDB read alike, with the snapshots’ figures, versions and changes', async () => {
    const sqlite = join(dir, 'weblate.sqlite');
    const parquet = join(dir, 'weblate-dataset');
    const cli = await tmsnap(['dataset', '--content', content, '--format', 'sqlite', '--out', sqlite]);
    expect(cli.stderr).toContain('snapshot 3/3');
    expect(cli.code, cli.stderr).toBe(0);
    expect((await tmsnap(['dataset', '--content', content, '--format', 'parquet', '--out', parquet])).code).toBe(0);
    const fromSqlite = await readAll('sqlite', sqlite);
    const fromParquet = await readAll('parquet', parquet);
    for (const table of tableNames) expect(fromParquet[table], table).toEqual(fromSqlite[table]);
    const data = fromSqlite;
    // Every column of every file Zstandard-compressed, as DuckDB reads it (docs/dataset.md).
    const files = await ParquetDataset.open(parquet);
    const codecs = await files.query(`SELECT DISTINCT compression FROM parquet_metadata('${join(parquet, '**', '*.parquet')}')`);
    files.close();
    expect(codecs).toEqual([{ compression: 'ZSTD' }]);

    expect(data.snapshots!.map((row) => row.snapshot)).toEqual(ids);
    expect(data.releases).toEqual([{ tag: 'v1.0', snapshot: ids[1] }]);
    const publicProjects = [...new Set(data.projects!.map((row) => String(row.project)))];
    expect(publicProjects.length).toBeGreaterThan(0);

    // Per translation and snapshot, the figures the snapshot's own records hold.
    for (const id of ids) {
      const entries = await translationEntries(await openSnapshot(content, id), { projects: publicProjects, languages: [] });
      const rows = data.translations!.filter((row) => row.snapshot === id);
      expect(rows.map((row) => `${row.project}/${row.component}/${row.language}`).sort()).toEqual(
        entries.map((entry) => `${entry.project.slug}/${entry.component.slug}/${entry.language.slug}`).sort(),
      );
      for (const entry of entries) {
        const row = rows.find(
          (candidate) => candidate.project === entry.project.slug && candidate.component === entry.component.slug && candidate.language === entry.language.slug,
        )!;
        expect({
          total: row.total,
          translated: row.translated,
          fuzzy: row.fuzzy,
          total_words: row.total_words,
          translated_words: row.translated_words,
        }).toEqual(entry.figures);
      }
    }

    // Unit versions: what begins in B and what ends in A are what `tmsnap diff A B` lists.
    let diffed = 0;
    for (let at = 1; at < ids.length; at++) {
      const [from, to] = [ids[at - 1]!, ids[at]!];
      const diff = await compareSnapshots(content, from, to, { projects: publicProjects, languages: [] });
      const after = await openSnapshot(content, to);
      const before = await openSnapshot(content, from);
      let begun = 0;
      let ended = 0;
      for (const translation of diff.translations) {
        const changes = translation.changes;
        if (translation.status === 'added') begun += (await after.units(translation.path)).length;
        else if (translation.status === 'removed') ended += (await before.units(translation.path)).length;
        else {
          begun += changes.filter((change) => change.kind !== 'removed').length;
          ended += changes.filter((change) => change.kind !== 'added').length;
        }
        diffed += changes.length;
      }
      expect(data.unit_versions!.filter((row) => row.first_snapshot === to).length, `versions beginning in ${to}`).toBe(begun);
      expect(data.unit_versions!.filter((row) => row.last_snapshot === from).length, `versions ending in ${from}`).toBe(ended);
    }
    expect(diffed).toBeGreaterThan(0);

    // The change log: each change of the public projects once, as the export gives it.
    const newest = await openSnapshot(content, ids.at(-1));
    const exported: Plain[] = [];
    for await (const line of exportRecords(newest)) {
      if (line.kind !== 'change') continue;
      const record = line.record as { id: number; timestamp: string; action: number; target: string; translation: string | null; component: string | null };
      const of = record.translation ?? record.component;
      const project = of === null ? undefined : decodeURIComponent(new URL(of).pathname.split('/')[3]!);
      if (project === undefined || !publicProjects.includes(project)) continue;
      exported.push({ id: record.id, timestamp: new Date(record.timestamp).toISOString(), action: record.action, target: redactEmails(record.target) });
    }
    expect(exported.length).toBeGreaterThan(0);
    expect(data.changes!.map(({ id, timestamp, action, target }) => ({ id, timestamp, action, target }))).toEqual(
      exported.sort((a, b) => Number(a.id) - Number(b.id)),
    );
  }, 120_000);

  it('answers the four queries of docs/dataset.md alike on SQLite and DuckDB, as credits and diff do', async () => {
    const sqliteFile = join(dir, 'queries.sqlite');
    const parquetFolder = join(dir, 'queries-dataset');
    await write(content, sqliteFile, 'sqlite');
    await write(content, parquetFolder, 'parquet');
    const queries = await docQueries();
    expect([...queries.keys()]).toEqual(['language-progress', 'contributors', 'regressions', 'levels']);
    const sqlite = new SqliteDataset(sqliteFile);
    const parquet = await ParquetDataset.open(parquetFolder);
    try {
      const both = async (sql: string) => {
        const rows = sqlite.query(sql);
        expect(await parquet.query(sql)).toEqual(rows);
        return rows;
      };
      const progress = await both(queries.get('language-progress')!);
      expect(progress.length).toBe(sqlite.table('languages').length);

      // Over all time: the credits of the newest snapshot's published view.
      const contributors = await both(queries.get('contributors')!.replace("'2026-01-01'", "'2000-01-01'").replace("'2027-01-01'", "'2100-01-01'"));
      const newest = await publishedSnapshot(await openSnapshot(content, ids.at(-1)), { publish: [], hideAuthors: false });
      const credits = await readCredits(newest, allTime, redactEmails);
      const expected = credits.flatMap(({ project, languages }) =>
        languages.flatMap(({ language, contributors: people }) => people.map((person) => `${project.slug} ${language.slug} ${person.name} ${person.changes}`)),
      );
      expect(contributors.map((row) => `${row.project} ${row.language} ${row.translator} ${row.changes}`).sort()).toEqual(expected.sort());
      expect(contributors.length).toBeGreaterThan(0);

      // Regressions: the units `tmsnap diff` shows going from translated (state ≥ 20) to not.
      const regressions = await both(queries.get('regressions')!);
      const publicProjects = [...new Set(sqlite.table('projects').map((row) => String(row.project)))];
      const fromDiff: string[] = [];
      for (let at = 1; at < ids.length; at++) {
        const diff = await compareSnapshots(content, ids[at - 1]!, ids[at]!, { projects: publicProjects, languages: [] });
        for (const translation of diff.translations)
          for (const change of translation.changes)
            if ((change.before?.state ?? 0) >= 20 && change.after !== undefined && change.after.state < 20)
              fromDiff.push(`${translation.path}#${change.id}@${ids[at]}`);
      }
      expect(regressions.length).toBeGreaterThan(0);
      expect(regressions.map((row) => `api/translations/${row.project}/${row.component}/${row.language}/#${row.unit}@${row.since}`).sort()).toEqual(
        fromDiff.sort(),
      );

      // Levels: at a threshold some language of a project crossed, the crossings computed here.
      const shares = new Map<string, { snapshot: string; percent: number }[]>();
      for (const id of ids) {
        const sums = new Map<string, { translated: number; total: number }>();
        for (const row of sqlite.table('translations').filter((candidate) => candidate.snapshot === id && candidate.is_source === false)) {
          const key = `${row.project} ${row.language}`;
          const sum = sums.get(key) ?? { translated: 0, total: 0 };
          sum.translated += Number(row.translated);
          sum.total += Number(row.total);
          sums.set(key, sum);
        }
        for (const [key, sum] of sums)
          if (sum.total > 0) shares.set(key, [...(shares.get(key) ?? []), { snapshot: id, percent: (100 * sum.translated) / sum.total }]);
      }
      const rises = [...shares.values()].flatMap((list) => list.slice(1).filter((step, at) => step.percent > list[at]!.percent));
      const threshold = rises.length > 0 ? Math.min(...rises.map((step) => step.percent)) : 95;
      const crossings = [...shares.entries()].flatMap(([key, list]) =>
        list.slice(1).flatMap((step, at) => (step.percent >= threshold && list[at]!.percent < threshold ? [`${key} ${step.snapshot}`] : [])),
      );
      const levels = await both(queries.get('levels')!.replaceAll('95', String(threshold)));
      expect(levels.length).toBeGreaterThan(0);
      expect(levels.map((row) => `${row.project} ${row.language} ${row.snapshot}`).sort()).toEqual(crossings.sort());
    } finally {
      sqlite.close();
      parquet.close();
    }
  }, 120_000);

  it('adds a new snapshot without rewriting the old files, as a new dataset would hold it; a run stopped half-way changes nothing', async () => {
    const sqlite = join(dir, 'incremental.sqlite');
    const parquet = join(dir, 'incremental-dataset');
    for (const format of ['sqlite', 'parquet'] as const) await write(content, format === 'sqlite' ? sqlite : parquet, format);
    const oldFile = join(parquet, 'translations', 'month=2026-10', `${ids[0]}.parquet`);
    const inode = (await stat(oldFile)).ino;
    ids.push(await crawlNext(3));
    for (const format of ['sqlite', 'parquet'] as const) {
      const out = format === 'sqlite' ? sqlite : parquet;
      const summary = await write(content, out, format);
      expect(summary.incremental, format).toBe(true);
      expect(summary.added).toEqual([ids[3]]);
      const fresh = join(dir, `fresh-${format}`);
      await write(content, fresh, format);
      expect(await readAll(format, out), format).toEqual(await readAll(format, fresh));
    }
    // The first snapshot's file is the same file (a hard link kept), not a copy written again.
    expect((await stat(oldFile)).ino).toBe(inode);

    // A fifth crawl, and a run that stops after its first snapshot: the dataset is as before.
    ids.push(await crawlNext(4));
    for (const format of ['sqlite', 'parquet'] as const) {
      const out = format === 'sqlite' ? sqlite : parquet;
      const before = await readAll(format, out);
      const stopped = writeDataset({
        content,
        out,
        format,
        tmsnapVersion: '0.0.0-test',
        onProgress: (line) => {
          if (line.startsWith('snapshot 1/')) throw new Error('stopped');
        },
      });
      await expect(stopped).rejects.toThrow('stopped');
      expect(await readAll(format, out), format).toEqual(before);
      expect((await readdir(dir)).filter((name) => name.includes('.tmsnap-'))).toEqual([]);
    }
  }, 180_000);

  it('keeps the snapshots the archive no longer holds (pruned) when it adds newer ones', async () => {
    const archive = join(dir, 'pruned-archive');
    await cp(content, archive, { recursive: true });
    const formats = ['sqlite', 'parquet'] as const;
    const out = (format: DatasetFormat) => join(dir, `pruned-${format}`);
    const before: Record<string, Record<string, Plain[]>> = {};
    for (const format of formats) {
      await write(archive, out(format), format);
      before[format] = await readAll(format, out(format));
    }
    await rm(join(archive, 'snapshots', ids[0]!), { recursive: true });
    randomActivity(model, 99, { unitMutations: 5, structural: false });
    const newest = await redate(archive, await crawlInto(server, archive), new Date('2026-12-15T04:00:00Z'));
    for (const format of formats) {
      const summary = await write(archive, out(format), format);
      expect(summary.incremental, format).toBe(true);
      expect(summary.added, format).toEqual([newest]);
      const after = await readAll(format, out(format));
      expect(after.snapshots!.map((row) => row.snapshot)).toEqual([...before[format]!.snapshots!.map((row) => row.snapshot), newest]);
      const oldest = (rows: Plain[]) => rows.filter((row) => row.snapshot === ids[0]);
      expect(oldest(after.translations!).length).toBeGreaterThan(0);
      expect(oldest(after.translations!)).toEqual(oldest(before[format]!.translations!));
    }
  }, 120_000);

  it('refuses, in one line and writing nothing, an archive without a complete snapshot, an output it did not write, an unknown tag', async () => {
    const partialOnly = join(dir, 'partial-archive');
    await mkdir(join(partialOnly, 'snapshots', '2026-11-01T040000Z.partial'), { recursive: true });
    const out = join(dir, 'never.sqlite');
    const noComplete = await tmsnap(['dataset', '--content', partialOnly, '--format', 'sqlite', '--out', out]);
    expect(noComplete.code).toBe(1);
    expect(noComplete.stderr.trim().split('\n')).toHaveLength(1);
    expect(noComplete.stderr).toContain('no complete snapshot');
    expect(existsSync(out)).toBe(false);

    const foreignFile = join(dir, 'notes.sqlite');
    await writeFile(foreignFile, 'my notes\n');
    const file = await tmsnap(['dataset', '--content', content, '--format', 'sqlite', '--out', foreignFile]);
    expect(file.code).toBe(2);
    expect(file.stderr.trim().split('\n')).toHaveLength(1);
    expect(file.stderr).toContain('not a tmsnap dataset');
    expect(await readFile(foreignFile, 'utf8')).toBe('my notes\n');

    const foreignFolder = join(dir, 'photos');
    await mkdir(foreignFolder);
    await writeFile(join(foreignFolder, 'cat.jpg'), 'cat');
    const folderRun = await tmsnap(['dataset', '--content', content, '--format', 'parquet', '--out', foreignFolder]);
    expect(folderRun.code).toBe(2);
    expect(folderRun.stderr.trim().split('\n')).toHaveLength(1);
    expect(folderRun.stderr).toContain('cat.jpg');
    expect(await readdir(foreignFolder)).toEqual(['cat.jpg']);

    const tagOut = join(dir, 'tagged');
    const tag = await tmsnap(['dataset', '--content', content, '--format', 'parquet', '--out', tagOut, '--snapshot', 'v9.9']);
    expect(tag.code).toBe(1);
    expect(tag.stderr.trim().split('\n')).toHaveLength(1);
    expect(tag.stderr).toContain('v9.9');
    expect(existsSync(tagOut)).toBe(false);
    expect((await readdir(dir)).filter((name) => name.includes('.tmsnap-'))).toEqual([]);
  }, 60_000);

  it('publishes no e-mail address: not a username, a name, a string or a change’s text', async () => {
    const { model: withAddresses, unitId } = creditsModel(() => new Date('2026-11-20T10:00:00Z'));
    withAddresses.translate(unitId(1, 'cs', 4), ['Pište na jane@example.org'], 'jane@example.org');
    withAddresses.approve(unitId(1, 'cs', 1), 'carol');
    const server = await historyServer(withAddresses);
    const archive = join(dir, 'addresses');
    try {
      await crawlInto(server, archive);
    } finally {
      await server.close();
    }
    for (const format of ['sqlite', 'parquet'] as const) {
      const out = join(dir, `addresses-${format}`);
      await write(archive, out, format);
      const data = await readAll(format, out);
      const texts = Object.values(data).flatMap((rows) => rows.flatMap((row) => Object.values(row).filter((value) => typeof value === 'string')));
      expect(
        texts.some((text) => text.includes('Pište na')),
        format,
      ).toBe(true);
      expect(
        texts.flatMap((text) => findEmails(text)),
        format,
      ).toEqual([]);
      expect(
        data.changes!.some((row) => row.author === 'Carol'),
        format,
      ).toBe(true);
    }
  }, 60_000);

  it('writes, for build --dataset, the snapshots up to the one built naming nobody, and never adds to it naming people', async () => {
    const out = join(dir, 'site-dataset.sqlite');
    const hidden = await writeDataset({ content, out, format: 'sqlite', snapshot: ids[1]!, hideAuthors: true, tmsnapVersion: '0.0.0-test' });
    expect(hidden.added).toEqual(ids.slice(0, 2));
    let data = await readAll('sqlite', out);
    expect([...new Set(data.snapshots!.map((row) => row.snapshot))]).toEqual(ids.slice(0, 2));
    expect(data.changes!.length).toBeGreaterThan(0);
    expect(data.changes!.filter((row) => row.user !== null || row.author !== null)).toEqual([]);
    expect(data.translations!.filter((row) => row.last_author !== null)).toEqual([]);
    // The same snapshots and one more, naming people: written anew, not added to the nameless one.
    const named = await writeDataset({ content, out, format: 'sqlite', snapshot: ids[2]!, tmsnapVersion: '0.0.0-test' });
    expect(named.incremental).toBe(false);
    data = await readAll('sqlite', out);
    // Up to the third snapshot: the tests before this one add later snapshots to the archive.
    expect(data.snapshots!.map((row) => row.snapshot)).toEqual(ids.slice(0, 3));
    const earlier = data.changes!.filter((row) => String(row.first_snapshot) <= ids[1]!);
    expect(earlier.some((row) => row.user !== null)).toBe(true);
  });
});
