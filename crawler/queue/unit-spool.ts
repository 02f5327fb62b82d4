import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseUnitLines, unitLine } from './unit-lines.ts';

/**
 * Units waiting for their translation's list to be complete, one NDJSON file per translation
 * on disk: units arrive in pages of up to 10,000 from `/api/units/`, mixed across
 * translations, and a million of them must never sit in memory at once.
 */
export class UnitSpool {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  // File names come from a hash of the URL, never from slugs or language codes.
  #file(translationUrl: string): string {
    return join(this.#dir, `${createHash('sha256').update(translationUrl).digest('hex')}.ndjson`);
  }

  /**
   * Adds units to their translations' files. Each batch starts on a fresh line, so a batch
   * cut short by a kill leaves one unreadable line and never spoils the next batch.
   */
  append(byTranslation: ReadonlyMap<string, readonly unknown[]>): void {
    for (const [translationUrl, units] of byTranslation) {
      appendFileSync(this.#file(translationUrl), `\n${units.map(unitLine).join('\n')}\n`);
    }
  }

  /** Whether anything was spooled for a translation (by this run or one it resumes). */
  holds(translationUrl: string): boolean {
    return existsSync(this.#file(translationUrl));
  }

  /** The units spooled for a translation, each id once (a page fetched twice after a resume holds the same units). */
  read(translationUrl: string): unknown[] {
    let text: string;
    try {
      text = readFileSync(this.#file(translationUrl), 'utf8');
    } catch {
      return [];
    }
    const byId = new Map<unknown, unknown>();
    for (const unit of parseUnitLines(text)) {
      const id = (unit as { id?: unknown } | null)?.id;
      byId.set(id ?? unitLine(unit), unit);
    }
    return [...byId.values()];
  }

  /** Forgets what was spooled for one translation, before its list is fetched again. */
  clear(translationUrl: string): void {
    rmSync(this.#file(translationUrl), { force: true });
  }

  remove(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
