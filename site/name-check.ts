/**
 * Names in a built site (or a content folder) that Windows cannot hold: device names
 * (`con`, `aux.svg`, any case), names ending in a dot or a space, and names in one folder
 * that differ only by case (docs/site.md, "Safe names"). The site's tests run it on builds.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isWindowsReserved } from '../site-model/paths.ts';

export function unsafeName(name: string): string | undefined {
  if (isWindowsReserved(name)) return 'a Windows device name';
  if (/[. ]$/.test(name)) return 'ends in a dot or a space';
  return undefined;
}

/** `path: reason` for every unsafe name under `root`, paths relative to it. */
export async function unsafeNames(root: string): Promise<string[]> {
  const problems: string[] = [];
  const visit = async (folder: string, prefix: string) => {
    const entries = await readdir(folder, { withFileTypes: true });
    const seen = new Map<string, string>();
    for (const entry of entries) {
      const path = prefix + entry.name;
      const reason = unsafeName(entry.name);
      if (reason) problems.push(`${path}: ${reason}`);
      const other = seen.get(entry.name.toLowerCase());
      if (other !== undefined) problems.push(`${path}: differs from ${prefix}${other} only by case`);
      seen.set(entry.name.toLowerCase(), entry.name);
      if (entry.isDirectory()) await visit(join(folder, entry.name), `${path}/`);
    }
  };
  await visit(root, '');
  return problems;
}
