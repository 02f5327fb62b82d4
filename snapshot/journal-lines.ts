/**
 * Torn-line recovery for the append-only NDJSON journals of a `.partial` snapshot: the writer's
 * `journal.ndjson` and the crawl's `crawl-journal.ndjson` (docs/crawl.md, "Resume";
 * docs/snapshot-format.md, "Writing"). A kill or a full disk in the middle of an append leaves
 * half a line at the end: it is cut from the file, so the next append starts on a line of its
 * own, and the complete lines are handed back for replay. What a line means is the reader's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeAtomic } from './store.ts';

/** The text up to and with its last newline, and the lines in it that are not empty. Pure. */
export function completeLines(text: string): { complete: string; lines: string[] } {
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return { complete, lines: complete.split('\n').filter((line) => line !== '') };
}

/** The complete lines of the journal at `path` (none when there is no file yet), its torn last line cut from the file. */
export async function recoverJournal(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const { complete, lines } = completeLines(text);
  if (complete !== text) await writeAtomic(path, complete);
  return lines;
}

/** `recoverJournal`, synchronously: for a journal whose appends are synchronous, so that nothing runs between the read and the cut. */
export function recoverJournalSync(path: string): string[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // No journal yet: a fresh crawl.
  }
  const { complete, lines } = completeLines(text);
  if (complete !== text) writeFileSync(path, complete);
  return lines;
}
