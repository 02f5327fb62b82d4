import { describe, expect, it } from 'vitest';
import { basesSnapshotId, listSnapshots, openSnapshot, openSnapshotWriter, previousForBases, type Scope } from '../../snapshot/index.ts';
import { sampleInstance } from '../helpers/records.ts';
import { useContentFolders } from '../helpers/temp.ts';
import { base, finishOptions, writeSample } from './helpers.ts';

const contentDir = useContentFolders('tmsnap-previous-shared-');

/** Writes one finished snapshot of the sample instance on that day, of that scope and server. */
async function writeDay(content: string, day: number, scope: Scope, server = base, complete = true): Promise<string> {
  const date = new Date(Date.UTC(2026, 10, day, 4, 15));
  const writer = await openSnapshotWriter(content, { baseUrl: `${server}api/`, scope, tmsnapVersion: '0.1.0', resume: false, now: () => date });
  if (server === base) await writeSample(writer, sampleInstance(base));
  else await writer.putRecord(`${server}api/`, sampleInstance(server).root);
  await writer.finish({ ...finishOptions, complete });
  return writer.id;
}

describe('the snapshot a new one is stored against', () => {
  it('is the newest finished one before it of the same server, whatever its scope or completeness', async () => {
    const content = await contentDir();
    const whole = await writeDay(content, 20, {});
    const project = await writeDay(content, 21, { projects: ['demo'] });
    const incomplete = await writeDay(content, 22, {}, base, false);
    await writeDay(content, 23, {}, 'http://127.0.0.1:8001/other/');
    const summaries = await listSnapshots(content);
    expect(basesSnapshotId(summaries, base, '2026-11-24T041500Z')).toBe(incomplete);
    expect(basesSnapshotId(summaries, base, incomplete)).toBe(project);
    expect(basesSnapshotId(summaries, base, project)).toBe(whole);
    expect(basesSnapshotId(summaries, base, whole)).toBeUndefined();
  });

  it('is the snapshot the caller opened when the rule picks it, and opened anew when it does not', async () => {
    const content = await contentDir();
    const whole = await writeDay(content, 20, {});
    const project = await writeDay(content, 21, { projects: ['demo'] });
    const next = '2026-11-22T041500Z';
    // A crawl of the whole instance builds on `whole` (same scope); its deltas go against `project`.
    const incremental = await openSnapshot(content, whole);
    const interleaved = await previousForBases(content, base, next, { opened: incremental });
    expect(interleaved.parent).not.toBe(incremental);
    expect(interleaved.parent?.manifest.id).toBe(project);
    // A crawl of the project builds on `project`, the same snapshot the writer picks: not opened twice.
    const same = await openSnapshot(content, project);
    expect((await previousForBases(content, base, next, { opened: same })).parent).toBe(same);
  });
});
