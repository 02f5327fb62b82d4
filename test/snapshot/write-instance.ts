/**
 * Child process for the crash tests: writes a synthetic instance into `content` (argv[2]),
 * resuming any unfinished snapshot, and prints one line per put so the parent can kill it
 * anywhere. The clock is pinned so that a resumed run and a clean run agree byte for byte.
 */
import { openSnapshotWriter } from '../../snapshot/index.ts';
import { syntheticInstance } from '../helpers/records.ts';

const [content] = process.argv.slice(2);
if (content === undefined) throw new Error('usage: write-instance.ts CONTENT_DIR');
const base = 'http://127.0.0.1:8000/';
const instance = syntheticInstance(base, { projects: 2, languages: 5, unitsPerTranslation: 30 });
const writer = await openSnapshotWriter(content, {
  baseUrl: base,
  scope: { projects: ['project-0', 'project-1'] },
  tmsnapVersion: '0.1.0',
  resume: true,
  now: () => new Date('2026-11-22T04:15:00Z'),
});
const step = (what: string) => process.stdout.write(`${what}\n`);

if (!writer.has(`${base}api/`)) await writer.putRecord(`${base}api/`, instance.root);
step('root');
for (const record of [...instance.projects, ...instance.components, ...instance.translations]) {
  if (writer.has(record.url)) continue;
  await writer.putRecord(record.url, record);
  step(record.url);
}
for (const { translationUrl, units } of instance.units) {
  if (writer.has(`${translationUrl}units/`)) continue;
  await writer.putUnits(translationUrl, units);
  step(`${translationUrl}units/`);
}
// Changes are idempotent: a resumed run simply puts them all again.
for (let start = 0; start < instance.changes.length; start += 25) {
  await writer.putChanges(instance.changes.slice(start, start + 25));
  step(`changes ${start}`);
}
const finished = await writer.finish({ requests: { made: 1, minimum: 1 }, problems: [], complete: true });
step(`finished ${finished.id}`);
