import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeLines, journalFile, openSnapshotWriter, recoverJournal, recoverJournalSync, snapshotsDir } from '../../snapshot/index.ts';
import { sampleInstance } from '../helpers/records.ts';
import { useContentFolders, useTempFolders } from '../helpers/temp.ts';
import { base, writeSample } from './helpers.ts';

const tempFolder = useTempFolders('tmsnap-journal-lines-');
const contentDir = useContentFolders('tmsnap-journal-resume-');

describe('torn-line recovery (snapshot/journal-lines.ts)', () => {
  it('keeps the complete lines and nothing of a torn last one', () => {
    expect(completeLines('{"a":1}\n\n{"b":2}\n{"c"')).toEqual({ complete: '{"a":1}\n\n{"b":2}\n', lines: ['{"a":1}', '{"b":2}'] });
    expect(completeLines('{"c"')).toEqual({ complete: '', lines: [] });
  });

  it('cuts the torn line from the file, so the next append starts a line of its own, both ways', async () => {
    const folder = await tempFolder();
    for (const [name, recover] of [
      ['async.ndjson', recoverJournal],
      ['sync.ndjson', (path: string) => Promise.resolve(recoverJournalSync(path))],
    ] as const) {
      const path = join(folder, name);
      expect(await recover(path)).toEqual([]);
      appendFileSync(path, '{"a":1}\n{"b":');
      expect(await recover(path)).toEqual(['{"a":1}']);
      appendFileSync(path, '{"c":3}\n');
      expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"c":3}\n');
    }
  });

  it('lets the writer resume a .partial whose journal an earlier tmsnap wrote and a kill tore', async () => {
    const content = await contentDir();
    const options = { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: '0.1.0', now: () => new Date('2026-11-22T04:15:00Z') };
    const first = await openSnapshotWriter(content, { ...options, resume: false });
    const sample = sampleInstance(base);
    await writeSample(first, sample);
    const stored = first.journal;
    const [partial] = readdirSync(snapshotsDir(content));
    const path = join(snapshotsDir(content), partial!, journalFile);
    // The lines as the writer has always written them: a path and its object, or a problem.
    expect(readFileSync(path, 'utf8').split('\n')[0]).toMatch(/^\{"path":"api\/","hash":"[0-9a-f]{64}"/);
    appendFileSync(path, '{"path":"api/projects/torn/","ha');

    const resumed = await openSnapshotWriter(content, { ...options, resume: true });
    expect(resumed.id).toBe(first.id);
    expect(resumed.journal).toEqual(stored);
    await resumed.putRecord(sample.project.url, sample.project);
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .every((line) => line === '' || JSON.parse(line)),
    ).toBe(true);
  });
});
