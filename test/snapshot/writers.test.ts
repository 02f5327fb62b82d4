import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdArchiveLock } from '../helpers/lock-holder.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { base, finishOptions, newWriter, writeSample } from './helpers.ts';
import { sampleInstance } from '../helpers/records.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { startTestServer } from '../helpers/reference-server.ts';
import type { ReferenceServer } from '@tmsnap/reference-server';

/**
 * The commands that write an archive take its lock: with another writer holding it, each
 * exits 1 at once, names the holder, and changes nothing. A missing archive or pack file is a
 * failure that creates nothing.
 */

const folder = useTempFolders('tmsnap-writers-');

/** An archive holding one finished snapshot of the sample instance. */
async function oneSnapshotArchive(): Promise<string> {
  const content = join(await folder(), 'content');
  const writer = await newWriter(content);
  await writeSample(writer, sampleInstance(base));
  await writer.finish(finishOptions);
  return content;
}

// A crawl asks the API root before it creates anything, the lock included (docs/crawl.md,
// "Before anything is written"): a server that answers, so that the lock is what stops it.
let server: ReferenceServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const writers: Record<string, (content: string, scratch: string) => Promise<string[]>> = {
  crawl: async (content) => ['crawl', '--url', server.url, '--content', content],
  prune: async (content) => ['prune', '--content', content, '--keep-daily', '1'],
  migrate: async (content) => ['migrate', '--content', content],
  unpack: async (content, scratch) => {
    const pack = join(scratch, 'some.tar.gz');
    await writeFile(pack, 'not really a pack');
    return ['unpack', pack, '--content', content];
  },
};

describe('one writer at a time', () => {
  for (const [name, argsFor] of Object.entries(writers)) {
    for (const holder of Object.keys(writers)) {
      it(`${name} exits 1 naming the ${holder} that holds the archive, and leaves it as it was`, async () => {
        const content = await oneSnapshotArchive();
        const args = await argsFor(content, await folder());
        const held = await holdArchiveLock(content, holder);
        try {
          const before = await readdir(content, { recursive: true });
          const result = await tmsnap(args);
          expect(result.code, result.stderr).toBe(1);
          expect(result.stderr).toContain(`tmsnap ${holder}\` (pid ${held.pid}`);
          expect(await readdir(content, { recursive: true })).toEqual(before);
        } finally {
          expect(await held.stop()).toBe(0);
        }
      });
    }
  }
});

describe('missing inputs are failures that create nothing', () => {
  it('prune on a folder that is no archive exits 1 naming it', async () => {
    const missing = join(await folder(), 'typo');
    const result = await tmsnap(['prune', '--content', missing, '--keep-daily', '3']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no archive at ${missing}`);
    expect(existsSync(missing)).toBe(false);
  });

  it('unpack of a missing pack file exits 1 and creates no content folder', async () => {
    const scratch = await folder();
    const content = join(scratch, 'content');
    const result = await tmsnap(['unpack', join(scratch, 'missing.tar.gz'), '--content', content]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no pack file at');
    expect(existsSync(content)).toBe(false);
  });
});
