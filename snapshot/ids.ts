/** What a snapshot id looks like; the only data from which a snapshot path is ever built. */
export const snapshotIdPattern = /^\d{4}-\d{2}-\d{2}T\d{6}Z(-\d+)?$/;

/** `2026-11-22T041500Z`: a UTC time that sorts as text and is safe as a directory name everywhere. */
export function snapshotIdAt(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '');
}

/** Whether `text` is a snapshot id (the only data from which a snapshot path is ever built). */
export function isSnapshotId(text: string): boolean {
  return snapshotIdPattern.test(text);
}

/** Newest first: by time, then by the `-N` suffix that separates snapshots started in the same second. */
export function compareSnapshotIdsNewestFirst(a: string, b: string): number {
  const [timeA, suffixA] = splitId(a);
  const [timeB, suffixB] = splitId(b);
  if (timeA !== timeB) return timeA < timeB ? 1 : -1;
  return suffixB - suffixA;
}

function splitId(id: string): [string, number] {
  const match = /^(.*Z)(?:-(\d+))?$/.exec(id);
  return [match?.[1] ?? id, Number(match?.[2] ?? 1)];
}
