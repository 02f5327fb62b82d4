import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../archive/migrate.ts';
import { verifyStore } from '../../archive/verify.ts';
import { parseJson } from '../../api/index.ts';
import { canonicalJson, exportRecords, listObjects, openSnapshot, type Snapshot } from '../../snapshot/index.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { writeFormat1Copy } from './format1.ts';
import { base, finishOptions, newWriter, writeSample } from './helpers.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { sampleInstance, syntheticInstance } from '../helpers/records.ts';

const contentDir = useContentFolders('tmsnap-snapshot-');

async function exported(snapshot: Snapshot): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of exportRecords(snapshot)) lines.push(canonicalJson(line));
  return lines;
}

/** Two format-2 snapshots (a sample, then a bigger synthetic instance), and their format-1 copies in another folder. */
async function archives(): Promise<{ fresh: string; old: string; ids: string[] }> {
  const fresh = await contentDir();
  const first = await newWriter(fresh, new Date('2026-11-20T04:15:00Z'));
  await writeSample(first, sampleInstance(base));
  const one = await first.finish(finishOptions);
  const second = await newWriter(fresh, new Date('2026-11-21T04:15:00Z'));
  await writeSample(second, sampleInstance(base));
  const instance = syntheticInstance(base, { projects: 2, languages: 3, unitsPerTranslation: 150 });
  for (const record of [...instance.projects, ...instance.components, ...instance.translations]) await second.putRecord(record.url, record);
  for (const list of instance.units) await second.putUnits(list.translationUrl, list.units);
  await second.putChanges(instance.changes);
  // A long list other than units (Weblate's translation memory is one): kept in chunks in format 2.
  const memory = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, source: `Source ${i}`, target: `Target ${i}`, origin: 'project-0/core' }));
  await second.putRecord(`${base}api/memory/`, { count: memory.length, next: null, previous: null, results: memory });
  const two = await second.finish(finishOptions);
  const old = await contentDir();
  for (const id of [one.id, two.id]) await writeFormat1Copy(fresh, id, old);
  return { fresh, old, ids: [one.id, two.id] };
}

const manifestOf = async (content: string, id: string) =>
  parseJson(await readFile(join(content, 'snapshots', id, 'manifest.json'), 'utf8')) as { format: number; index: string };

describe('format 1 and format 2', () => {
  it('reads a format-1 snapshot exactly as its format-2 twin: every record, unit, file and change', async () => {
    const { fresh, old, ids } = await archives();
    expect((await manifestOf(old, ids[1]!)).format).toBe(1);
    expect((await manifestOf(fresh, ids[1]!)).format).toBe(4);
    for (const id of ids) expect(await exported(await openSnapshot(old, id))).toEqual(await exported(await openSnapshot(fresh, id)));
    expect((await openSnapshot(fresh, ids[1])).index.chunked).toEqual(['api/memory/']);
    expect(((await (await openSnapshot(fresh, ids[1])).record('api/memory/')) as { results: unknown[] }).results).toHaveLength(300);
    const translations = (await (await openSnapshot(fresh, ids[1])).translations()).map((entry) => entry.path);
    expect(translations.length).toBeGreaterThan(3);
    for (const path of translations)
      expect((await (await openSnapshot(old, ids[1])).units(path)).length).toBe((await (await openSnapshot(fresh, ids[1])).units(path)).length);
    // Units read with a screen of their stored bytes: format 1's one list is one part, format 2's chunks as cut.
    const [oldSnapshot, freshSnapshot] = [await openSnapshot(old, ids[1]), await openSnapshot(fresh, ids[1])];
    for (const path of translations) {
      const units = await freshSnapshot.units(path);
      const oldParts = await oldSnapshot.screenedUnits(path, (json) => json.includes('"position":'));
      expect(oldParts.map((part) => part.flagged)).toEqual([true]);
      expect(oldParts[0]!.units).toEqual(units);
      const freshParts = await freshSnapshot.screenedUnits(path, (json) => json.length % 2 === 0);
      expect(freshParts.map((part) => part.units.length)).toEqual((await freshSnapshot.unitChunks(path))!.map((chunk) => chunk.units.length));
      expect(freshParts.flatMap((part) => part.units)).toEqual(units);
    }
    expect(await freshSnapshot.screenedUnits('api/translations/none/core/cs/', () => true)).toEqual([]);
  });
});

describe('tmsnap migrate', () => {
  it('rewrites format-1 snapshots into the very objects a format-2 crawl writes, verifies, then drops the old objects', async () => {
    const { fresh, old, ids } = await archives();
    const result = await migrate(old);
    expect(result.migrated).toEqual(ids);
    for (const id of ids) {
      // Same index root hash: the same chunks, parts and records as a snapshot written in format 2.
      expect(await manifestOf(old, id)).toEqual(await manifestOf(fresh, id));
    }
    expect((await verifyStore(old)).problems).toEqual([]);
    const keys = (await listObjects(old)).objects.map((object) => object.key);
    expect(keys.filter((key) => key.endsWith('.json') || key.endsWith('.raw'))).toEqual([]);
    expect(new Set(keys)).toEqual(new Set((await listObjects(fresh)).objects.map((object) => object.key)));
    expect(result.objectsRemoved).toBeGreaterThan(0);
  });

  it('resumes after being stopped between snapshots, with every snapshot readable meanwhile', async () => {
    const { fresh, old, ids } = await archives();
    await expect(
      migrate(old, {
        onSnapshot: () => {
          throw new Error('stopped');
        },
      }),
    ).rejects.toThrow('stopped');
    expect((await manifestOf(old, ids[0]!)).format).toBe(4);
    expect((await manifestOf(old, ids[1]!)).format).toBe(1);
    for (const id of ids) expect(await exported(await openSnapshot(old, id))).toEqual(await exported(await openSnapshot(fresh, id)));

    const result = await migrate(old);
    expect(result).toMatchObject({ migrated: [ids[1]], already: [ids[0]] });
    for (const id of ids) expect(await exported(await openSnapshot(old, id))).toEqual(await exported(await openSnapshot(fresh, id)));
  });

  it('keeps the old objects when verify finds a problem, and says so', async () => {
    const { old, ids } = await archives();
    // A crawl in progress (of an older tmsnap) that names an object nobody has: verify reports it.
    const partial = join(old, 'snapshots', '2026-11-22T041500Z.partial');
    await import('node:fs/promises').then(({ mkdir, writeFile }) =>
      mkdir(partial, { recursive: true }).then(() =>
        Promise.all([
          writeFile(join(partial, 'state.json'), JSON.stringify({ format: 1 })),
          writeFile(join(partial, 'journal.ndjson'), `${JSON.stringify({ path: 'api/projects/x/', hash: 'a'.repeat(64), raw: false })}\n`),
        ]),
      ),
    );
    await expect(migrate(old)).rejects.toThrow(/verify found 1 problem\(s\).*the format-1 objects were kept/);
    expect((await listObjects(old)).objects.some((object) => object.key.endsWith('.json'))).toBe(true);
    for (const id of ids) expect((await manifestOf(old, id)).format).toBe(4);
  });

  it('is a command: exit 0 and a summary, and exit 1 naming a folder that is no archive', async () => {
    const { old } = await archives();
    const result = await tmsnap(['migrate', '--content', old]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^migrate: 2 snapshots rewritten, 0 already in format 4; verify OK; \d+ old objects/);
    expect((await tmsnap(['migrate', '--content', old])).stdout).toMatch(/^migrate: 0 snapshots rewritten, 2 already in format 4/);
    const missing = join(old, 'nothing-here');
    const failed = await tmsnap(['migrate', '--content', missing]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`no archive at ${missing}`);
    expect(await readdir(old)).not.toContain('nothing-here');
  });
});
