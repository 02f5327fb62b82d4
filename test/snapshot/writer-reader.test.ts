import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, exportRecords, listSnapshots, openSnapshot, openSnapshotWriter } from '../../snapshot/index.ts';
import { base, finishOptions, newWriter, writeSample } from './helpers.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { reversedKeys, sampleInstance } from '../helpers/records.ts';

const contentDir = useContentFolders('tmsnap-snapshot-');

async function exported(content: string) {
  const lines = [];
  for await (const line of exportRecords(await openSnapshot(content))) lines.push(line);
  return lines;
}

function byUrl(lines: { url: string }[]): Map<string, string> {
  return new Map(lines.map((line) => [line.url, canonicalJson('record' in line ? line.record : line)]));
}

describe('writer → reader → export', () => {
  for (const suffix of ['', '?format=api']) {
    it(`gives back every record exactly as served (links ${suffix || 'plain'})`, async () => {
      const content = await contentDir();
      const sample = sampleInstance(base, suffix);
      const writer = await newWriter(content);
      await writeSample(writer, sample);
      const { manifest } = await writer.finish(finishOptions);
      expect(manifest.server.format_api_links).toBe(suffix !== '');

      const lines = byUrl(await exported(content));
      const plain = (url: string) => url.replace('?format=api', '');
      const expected: [string, unknown][] = [
        [`${base}api/`, sample.root],
        [plain(sample.project.url), sample.project],
        [plain(sample.component.url), sample.component],
        [plain(sample.translation.url), sample.translation],
        [plain(sample.english.url), sample.english],
        [plain(sample.czech.url), sample.czech],
        [`${base}api/users/jane/notifications/`, sample.notifications],
        ...sample.units.map((unit): [string, unknown] => [plain(unit.url), unit]),
        ...sample.changes.map((change): [string, unknown] => [plain(change.url), change]),
      ];
      for (const [url, record] of expected) expect(lines.get(url), url).toBe(canonicalJson(record));
      expect(lines.size).toBe(expected.length + 1);
    });
  }

  it('stores links relative to the base, without format=api, and embedded objects as references', async () => {
    const content = await contentDir();
    const sample = sampleInstance(base, '?format=api');
    const writer = await newWriter(content);
    await writeSample(writer, sample);
    await writer.finish(finishOptions);
    const snapshot = await openSnapshot(content);
    const [component] = await snapshot.components();
    expect(component?.path).toBe('api/components/demo/core/');
    expect(component?.record.project).toBe('api/projects/demo/');
    expect(component?.record.source_language).toBe('api/languages/en/');
    expect(component?.record.statistics_url).toBe('api/components/demo/core/statistics/');
    expect(component?.record.web_url).toBe('projects/demo/core/');
    expect(component?.record.repo).toBe('https://git.example.org/demo.git');
    const [translation] = await snapshot.translations();
    expect(translation?.record.component).toBe('api/components/demo/core/');
    expect(translation?.record.language).toBe('api/languages/cs/');
  });

  it('keeps 64-bit hashes exact through write, read and export', async () => {
    const content = await contentDir();
    const writer = await newWriter(content);
    await writeSample(writer, sampleInstance(base));
    await writer.finish(finishOptions);
    const snapshot = await openSnapshot(content);
    const units = await snapshot.units('api/translations/demo/core/cs/');
    expect(units.map((unit) => unit.position)).toEqual([1, 2]);
    expect(units.map((unit) => unit.id_hash)).toEqual([9_223_372_036_854_775_807n, -9_007_199_254_740_993n]);
    const exportedUnits = (await exported(content)).filter((line) => line.kind === 'unit');
    expect(exportedUnits.map((line) => canonicalJson(line).match(/"id_hash": (-?\d+)/)?.[1])).toEqual(['9223372036854775807', '-9007199254740993']);
  });

  it('reads changes in ascending id order, de-duplicated, and the raw file', async () => {
    const content = await contentDir();
    const writer = await newWriter(content);
    await writeSample(writer, sampleInstance(base));
    const { manifest } = await writer.finish(finishOptions);
    const snapshot = await openSnapshot(content);
    const ids = [];
    for await (const change of snapshot.changes()) ids.push(change.id);
    expect(ids).toEqual([1, 2, 1500]);
    expect(manifest.counts).toMatchObject({ change: 3, unit: 2, project: 1, component: 1, translation: 1, language: 2 });
    const notifications = await snapshot.notifications('api/users/jane/');
    expect(notifications.map((item) => [item.id, item.project, item.component])).toEqual([
      [1, 'api/projects/demo/', 'api/components/demo/core/'],
      [2, null, null],
    ]);
    const file = await snapshot.file('api/translations/demo/core/cs/');
    expect(file?.contentType).toBe('text/x-gettext-catalog');
    expect(file?.bytes.toString()).toContain('msgstr "Ahoj"');
  });

  it('does not show a snapshot whose writer never finished', async () => {
    const content = await contentDir();
    const writer = await newWriter(content);
    await writeSample(writer, sampleInstance(base));
    await expect(openSnapshot(content)).rejects.toThrow(/no complete snapshot/);
    expect(await listSnapshots(content)).toEqual([{ id: '2026-11-22T041500Z', finished: false, complete: false }]);
  });

  it('writes nothing new for an unchanged second snapshot, whatever the key order', async () => {
    const content = await contentDir();
    const first = await newWriter(content);
    await writeSample(first, sampleInstance(base));
    await first.finish(finishOptions);
    const objectsAfterFirst = await readdir(join(content, 'objects'), { recursive: true });

    const second = await openSnapshotWriter(content, {
      baseUrl: base,
      scope: {},
      tmsnapVersion: '0.1.0',
      resume: false,
      now: () => new Date('2026-11-22T05:00:00Z'),
    });
    await writeSample(second, reversedKeys(sampleInstance(base)) as ReturnType<typeof sampleInstance>);
    await second.finish(finishOptions);
    expect(second.addedBytes).toBe(0);
    expect(await readdir(join(content, 'objects'), { recursive: true })).toEqual(objectsAfterFirst);
    expect((await listSnapshots(content)).map((summary) => summary.id)).toEqual(['2026-11-22T050000Z', '2026-11-22T041500Z']);
  });

  it('gives writers started in the same second their own ids, and leaves only the manifest in a finished snapshot', async () => {
    const content = await contentDir();
    const [first, second] = await Promise.all([newWriter(content), newWriter(content)]);
    expect(new Set([first.id, second.id])).toEqual(new Set(['2026-11-22T041500Z', '2026-11-22T041500Z-2']));
    await writeSample(first, sampleInstance(base));
    // A crawler keeps its own queue files in the snapshot's directory while it runs.
    await writeFile(join(first.dir, 'queue.ndjson'), 'x\n');
    const { dir } = await first.finish(finishOptions);
    expect(await readdir(dir)).toEqual(['manifest.json']);
    // Which of the two claimed which id depends on how their claims interleave.
    expect((await listSnapshots(content)).map(({ id, finished }) => ({ id, finished }))).toEqual([
      { id: '2026-11-22T041500Z-2', finished: first.id === '2026-11-22T041500Z-2' },
      { id: '2026-11-22T041500Z', finished: first.id === '2026-11-22T041500Z' },
    ]);
  });

  it('lists only snapshot ids, and refuses to open an unfinished or unknown one with a clear error', async () => {
    const content = await contentDir();
    const writer = await newWriter(content);
    await writeSample(writer, sampleInstance(base));
    for (const junk of ['notes', 'latest', '2026-11-22T041500Z.tmp']) await mkdir(join(content, 'snapshots', junk));
    expect(await listSnapshots(content)).toEqual([{ id: writer.id, finished: false, complete: false }]);
    await expect(openSnapshot(content, writer.id)).rejects.toThrow(`snapshot ${writer.id} has no manifest`);
    await expect(openSnapshot(content, '../../etc')).rejects.toThrow('"../../etc" is not a snapshot id');
    await expect(openSnapshot(join(content, 'missing'))).rejects.toThrow(/no complete snapshot in .*missing.*run `tmsnap crawl` first/);
  });
});
