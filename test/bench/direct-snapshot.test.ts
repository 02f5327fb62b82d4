/**
 * The benches' direct writer (bench/direct-snapshot.ts): a synthetic instance stored through the
 * snapshot writer without HTTP, whole, and the same when a stopped write is continued.
 */
import { describe, expect, it } from 'vitest';
import { type DirectProgress, writeDirectSnapshot } from '../../bench/direct-snapshot.ts';
import { createSyntheticModel, parseSyntheticSpec } from '../../packages/reference-server/synthetic/index.ts';
import { listSnapshots, openSnapshot } from '../../snapshot/index.ts';
import { useTempFolders } from '../helpers/temp.ts';

const data = 'synthetic:projects=2,components=2,languages=3,units=2400,seed=6';
const folder = useTempFolders('tmsnap-direct-');

class Stop extends Error {}

describe('writeDirectSnapshot', () => {
  it("stores every translation's units and every change of the instance", async () => {
    const content = await folder();
    const model = createSyntheticModel(parseSyntheticSpec(data.slice('synthetic:'.length)));
    const result = await writeDirectSnapshot(content, data);
    const snapshot = await openSnapshot(content, result.id);
    expect(snapshot.manifest.complete).toBe(true);
    expect(snapshot.manifest.counts).toMatchObject({ unit: 2400, translation: model.translations().length, change: model.changeCount() });
  });

  it('continues a stopped write to the same snapshot an uninterrupted one stores', async () => {
    const whole = await folder();
    const resumed = await folder();
    const first = await writeDirectSnapshot(whole, data);
    const stopAt = (stage: DirectProgress['stage']) => (progress: DirectProgress) => {
      if (progress.stage === stage && progress.done > 0) throw new Stop(stage);
    };
    // Stopped once among the units and once in the change log, as a killed run would be.
    await expect(writeDirectSnapshot(resumed, data, stopAt('units'))).rejects.toBeInstanceOf(Stop);
    await expect(writeDirectSnapshot(resumed, data, stopAt('changes'))).rejects.toBeInstanceOf(Stop);
    const last = await writeDirectSnapshot(resumed, data);
    expect(last.resumed).toBe(true);
    const snapshots = await listSnapshots(resumed);
    expect(snapshots.map((snapshot) => snapshot.complete)).toEqual([true]);
    const [a, b] = await Promise.all([openSnapshot(whole, first.id), openSnapshot(resumed, last.id)]);
    expect(b.manifest.counts).toEqual(a.manifest.counts);
    // Content-addressed: the same records give the same index object.
    expect(b.manifest.index).toBe(a.manifest.index);
  });
});
