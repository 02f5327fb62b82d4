/**
 * The bytes a writer puts in `content/` are the archive's identity: an object's name is its
 * hash, and the next snapshot's deltas name their bases by it (docs/snapshot-format.md,
 * "Layout"). Two days of a synthetic instance, clocks pinned, give one exact set of files; a
 * change in normalizing, chunking, compressing, delta-coding or inlining changes the digest.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSnapshotWriter } from '../../snapshot/index.ts';
import { syntheticInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';

const base = 'http://127.0.0.1:8000/';

/** A translation file of about 40 KiB whose lines depend on `day` only where `changed` says. */
function catalog(translation: number, day: number, changed: boolean): Uint8Array {
  const lines: string[] = [];
  for (let i = 0; i < 800; i++)
    lines.push(`msgid "string ${translation}.${i}"\nmsgstr "text ${(i * 7919 + translation) % 1000}${changed && i % 97 === 0 ? ` day ${day}` : ''}"\n`);
  return new TextEncoder().encode(lines.join('\n'));
}

async function writeDay(content: string, day: number): Promise<void> {
  const instance = syntheticInstance(base, { projects: 2, languages: 3, unitsPerTranslation: 70 });
  const writer = await openSnapshotWriter(content, {
    baseUrl: base,
    scope: {},
    tmsnapVersion: '0.1.0',
    resume: false,
    now: () => new Date(`2026-11-2${day}T04:15:00Z`),
  });
  await writer.putRecord(`${base}api/`, instance.root);
  for (const record of [...instance.languages, ...instance.projects, ...instance.components, ...instance.translations])
    await writer.putRecord(record.url, record);
  for (const [at, { translationUrl, units }] of instance.units.entries()) {
    // The second day edits a few units of every other translation, and each of those translations' files.
    const edited = day > 1 && at % 2 === 0;
    if (edited) for (const unit of units.filter((_, position) => position % 23 === 0)) unit.target = [`Zmeneno ${day}`];
    await writer.putUnits(translationUrl, units);
    await writer.putFile(translationUrl, catalog(at, day, edited), 'text/x-gettext-catalog');
  }
  await writer.putChanges(instance.changes.slice(0, day === 1 ? 300 : instance.changes.length));
  await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
}

/** Every file of the content folder, by relative path, with the sha256 of its bytes, in one digest. */
async function contentDigest(content: string): Promise<{ files: number; digest: string }> {
  const paths = (await readdir(content, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(content, join(entry.parentPath, entry.name)))
    .sort();
  const digest = createHash('sha256');
  for (const path of paths)
    digest.update(
      `${path} ${createHash('sha256')
        .update(await readFile(join(content, path)))
        .digest('hex')}\n`,
    );
  return { files: paths.length, digest: digest.digest('hex') };
}

describe('the bytes a writer stores', () => {
  const contentFolder = useContentFolders();

  it('are exactly those of the format as released: two days of a synthetic instance, every object and manifest', async () => {
    const content = await contentFolder();
    await writeDay(content, 1);
    await writeDay(content, 2);
    const { files, digest } = await contentDigest(content);
    const deltas = (await readdir(content, { recursive: true })).filter((name) => String(name).endsWith('.dz'));
    // The second day's edits are kept as deltas, or the digest would pin less than the format.
    expect(deltas.length).toBeGreaterThan(0);
    expect({ files, digest }).toEqual({ files: 220, digest: 'a555a576534a5c6dc99e14438b26b3d14384ef103a2430e56129cad522edd660' });
  });
});
