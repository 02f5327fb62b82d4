/** The archive as `tmsnap export` lists it, and which of its lines only history needs (issue 27, tonight first). */
import { canonicalJson, exportRecords, openSnapshot } from '../../snapshot/index.ts';

/** Both tonight-first tests' instance: about 12,000 changes, three pages of 1,000 past the 10,000 the site shows. */
export const historyData = 'synthetic:projects=1,components=2,languages=3,units=12000,seed=3';

export interface Exported {
  url: string;
  kind: string;
  record?: { timestamp?: string };
}

export async function exported(content: string): Promise<Exported[]> {
  const lines: Exported[] = [];
  for await (const line of exportRecords(await openSnapshot(content))) lines.push(JSON.parse(canonicalJson(line)) as Exported);
  return lines;
}

/** What only the archive needs: translation files, translations' `repository/`, changes before `from`. */
export function isHistory(line: Exported, from: string | undefined): boolean {
  if (line.kind === 'file' || /\/translations\/[^/]+\/[^/]+\/[^/]+\/repository\/$/.test(line.url)) return true;
  return line.kind === 'change' && from !== undefined && Date.parse(line.record?.timestamp ?? '') < Date.parse(from);
}
