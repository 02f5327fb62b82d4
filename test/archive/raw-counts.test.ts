import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { snapshotListings } from '../../archive/listing.ts';
import { verifyStore } from '../../archive/verify.ts';
import { sampleInstance } from '../helpers/records.ts';
import { base, finishOptions, newWriter, writeSample } from '../snapshot/helpers.ts';
import { useContentFolders } from '../helpers/temp.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const execute = promisify(execFile);
const contentDir = useContentFolders('tmsnap-snapshot-');

/** Two snapshots: the first with two records that do not fit their schema, the second without. */
async function archiveWithRaw(): Promise<{ content: string; rawId: string; cleanId: string }> {
  const content = await contentDir();
  const first = await newWriter(content, new Date('2026-11-21T04:15:00Z'));
  await writeSample(first, sampleInstance(base));
  const project = sampleInstance(base).project;
  // A field the figures read (a kept field of another type, such as `id`, is drift: docs/weblate-api.md).
  await first.putRecord(`${base}api/projects/broken/`, { ...project, url: `${base}api/projects/broken/`, translation_review: 'not a boolean' });
  await first.putRecord(`${base}api/components/demo/broken/`, { name: 'no schema would take this' });
  const raw = await first.finish(finishOptions);
  const second = await newWriter(content);
  await writeSample(second, sampleInstance(base));
  const clean = await second.finish(finishOptions);
  return { content, rawId: raw.id, cleanId: clean.id };
}

describe('raw records in the archive tools', () => {
  it('tmsnap snapshots says how many raw records each snapshot holds', async () => {
    const { content, rawId, cleanId } = await archiveWithRaw();
    const listings = await snapshotListings(content);
    expect(listings.map((listing) => [listing.id, listing.raw])).toEqual([
      [cleanId, 0],
      [rawId, 2],
    ]);
    const { stdout } = await execute(process.execPath, ['bin/tmsnap.js', 'snapshots', '--content', content], { cwd: root });
    const lines = stdout.split('\n');
    expect(lines.find((line) => line.startsWith(rawId))).toMatch(/2 raw records, 2 problems$/);
    expect(lines.find((line) => line.startsWith(cleanId))).not.toMatch(/raw/);
  });

  it('tmsnap verify says how many raw records each snapshot holds, and is still OK', async () => {
    const { content, rawId } = await archiveWithRaw();
    const report = await verifyStore(content);
    expect(report.problems).toEqual([]);
    expect(report.raw).toEqual([{ snapshot: rawId, records: 2 }]);
    const { stdout } = await execute(process.execPath, ['bin/tmsnap.js', 'verify', '--content', content], { cwd: root });
    expect(stdout).toContain(`note: snapshot ${rawId} holds 2 raw record(s)`);
    expect(stdout).toMatch(/verify: OK: .*2 snapshots/);
  });
});
