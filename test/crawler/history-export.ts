/** The archive as `tmsnap export` lists it, and which of its lines only history needs (issue 27, tonight first). */
import { canonicalJson, exportRecords, openSnapshot } from '../../snapshot/index.ts';

/** Both tonight-first tests' instance: about 12,000 changes, three pages of 1,000 past the 10,000 the site shows. */
export const historyData = 'synthetic:projects=1,components=2,languages=3,units=12000,seed=3';

/** One exported line: what the filters read, and the line whole as canonical JSON, which equality compares. */
export interface Exported {
  url: string;
  kind: string;
  timestamp?: string;
  json: string;
}

/**
 * The lines kept as canonical text, not parsed back: equal text is equal data (keys sorted), and
 * comparing 30,000 strings is cheaper than re-parsing and deep-comparing as many records.
 */
export async function exported(content: string): Promise<Exported[]> {
  const lines: Exported[] = [];
  for await (const line of exportRecords(await openSnapshot(content))) {
    const record = 'record' in line ? (line.record as { timestamp?: unknown } | null) : undefined;
    const timestamp = typeof record?.timestamp === 'string' ? record.timestamp : undefined;
    lines.push({ url: line.url, kind: line.kind, ...(timestamp === undefined ? {} : { timestamp }), json: canonicalJson(line) });
  }
  return lines;
}

/** What only the archive needs: translation files, translations' `repository/`, changes before `from`. */
export function isHistory(line: Exported, from: string | undefined): boolean {
  if (line.kind === 'file' || /\/translations\/[^/]+\/[^/]+\/[^/]+\/repository\/$/.test(line.url)) return true;
  return line.kind === 'change' && from !== undefined && Date.parse(line.timestamp ?? '') < Date.parse(from);
}
