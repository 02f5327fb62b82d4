import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/**
 * Fresh folders under `parent` (the OS temp folder unless given; created if missing), removed
 * after each test (`each`, the default) or after the file's tests (`all`): the one temp-folder
 * helper of the suite. Call it at the top of a file or `describe`; call what it returns inside
 * a test or hook.
 */
export function useTempFolders(prefix = 'tmsnap-test-', scope: 'each' | 'all' = 'each', parent?: string): () => Promise<string> {
  const folders: string[] = [];
  const cleanUp = async () => {
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  };
  if (scope === 'each') afterEach(cleanUp);
  else afterAll(cleanUp);
  return async () => {
    if (parent) await mkdir(parent, { recursive: true });
    const folder = await mkdtemp(join(parent ?? tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
}

/**
 * The same, each call giving `<fresh folder>/content`, not yet created: an archive's folder as
 * `tmsnap crawl --content` is given it (the writer creates it).
 */
export function useContentFolders(prefix = 'tmsnap-test-', scope: 'each' | 'all' = 'each'): () => Promise<string> {
  const folder = useTempFolders(prefix, scope);
  return async () => join(await folder(), 'content');
}
