import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under `dir` with a hash of its bytes: equal prints, equal trees. */
export async function fingerprint(dir: string): Promise<string> {
  const lines: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    lines.push(
      `${path.slice(dir.length)} ${
        entry.isFile()
          ? createHash('sha256')
              .update(await readFile(path))
              .digest('hex')
          : 'dir'
      }`,
    );
  }
  return lines.sort().join('\n');
}
