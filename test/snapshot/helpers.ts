import { openSnapshotWriter, type SnapshotWriter } from '../../snapshot/index.ts';
import type { sampleInstance } from '../helpers/records.ts';

export const base = 'http://127.0.0.1:8000/weblate/';

/** Puts a whole sample instance through a writer, in the order a crawler would meet it. */
export async function writeSample(writer: SnapshotWriter, sample: ReturnType<typeof sampleInstance>): Promise<void> {
  await writer.putRecord(`${base}api/`, sample.root);
  await writer.putRecord(sample.project.url, sample.project);
  await writer.putRecord(sample.component.url, sample.component);
  await writer.putRecord(sample.translation.url, sample.translation);
  await writer.putUnits(sample.translation.url, sample.units);
  await writer.putChanges(sample.changes.slice(1));
  await writer.putChanges(sample.changes.slice(0, 2));
  await writer.putRecord(`${base}api/users/jane/notifications/`, sample.notifications);
  await writer.putFile(sample.translation.url, new TextEncoder().encode('msgid "Hello"\nmsgstr "Ahoj"\n'), 'text/x-gettext-catalog');
}

export async function newWriter(content: string, date = new Date('2026-11-22T04:15:00Z')) {
  return openSnapshotWriter(content, { baseUrl: `${base}api/`, scope: {}, tmsnapVersion: '0.1.0', resume: false, now: () => date });
}

export const finishOptions = { requests: { made: 10, minimum: 9 }, problems: [], complete: true };
