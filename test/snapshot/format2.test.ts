import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../archive/migrate.ts';
import { verifyStore } from '../../archive/verify.ts';
import { parseJson } from '../../api/index.ts';
import { canonicalJson, exportRecords, openSnapshot } from '../../snapshot/index.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { sampleInstance } from '../helpers/records.ts';
import { base, finishOptions, newWriter, writeSample } from './helpers.ts';

const contentDir = useContentFolders('tmsnap-format2-');

const manifestFile = (content: string, id: string) => join(content, 'snapshots', id, 'manifest.json');
const formatOf = async (content: string, id: string) => (parseJson(await readFile(manifestFile(content, id), 'utf8')) as { format: number }).format;

async function lines(content: string, id: string): Promise<string[]> {
  const out: string[] = [];
  for await (const line of exportRecords(await openSnapshot(content, id))) out.push(canonicalJson(line));
  return out;
}

describe('an archive written by format-2 tmsnap', () => {
  it('stays readable, takes format-4 snapshots on top, and migrates by its index alone', async () => {
    const content = await contentDir();
    const sample = sampleInstance(base);
    const first = await newWriter(content, new Date('2026-11-20T04:15:00Z'));
    await writeSample(first, sample);
    const old = await first.finish(finishOptions);
    // A first snapshot has nothing to be a delta against: its objects are format 2's, byte for byte.
    const manifest = parseJson(await readFile(manifestFile(content, old.id), 'utf8')) as Record<string, unknown>;
    await writeFile(manifestFile(content, old.id), canonicalJson({ ...manifest, format: 2 }));
    const before = await lines(content, old.id);
    expect(before.length).toBeGreaterThan(5);

    const second = await newWriter(content, new Date('2026-11-21T04:15:00Z'));
    await writeSample(second, { ...sample, units: sample.units.map((unit) => ({ ...unit, target: ['Nový překlad, delší než předtím'] })) });
    const next = await second.finish(finishOptions);
    expect(await formatOf(content, next.id)).toBe(4);
    expect((await (await openSnapshot(content, next.id)).units(sample.translation.url)).map((unit) => unit.target)).toEqual([
      ['Nový překlad, delší než předtím'],
      ['Nový překlad, delší než předtím'],
    ]);

    const result = await migrate(content);
    expect(result.migrated).toEqual([old.id]);
    expect(result.already).toEqual([next.id]);
    expect(await formatOf(content, old.id)).toBe(4);
    expect(await lines(content, old.id)).toEqual(before);
    expect((await verifyStore(content)).problems).toEqual([]);
  });
});
