import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { failWritesAfter, ObjectStore, openSnapshot, StoreWriteError } from '../../snapshot/index.ts';
import { useReferenceServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

/**
 * A full disk or a folder tmsnap may not write, met during a crawl: exit 1, one line saying
 * which folder and what to do, and the next run resumes with nothing lost
 * (docs/snapshot-format.md, "When a write fails"). We run as root, so a read-only folder would
 * not refuse us: the refusal is injected into the object store (its `writeFault` option; the
 * crawl run as a child process gets it from TMSNAP_TEST_WRITE_FAULT).
 */

const token = 'disk-full-token';
// Said explicitly, so the test passes under any default profile: private projects need a token, and no limit is reached.
const server = useReferenceServer({ behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
const folder = useTempFolders('tmsnap-disk-full-');

const crawl = (content: string, env: NodeJS.ProcessEnv = {}) =>
  tmsnap(['crawl', '--url', server().url, '--content', content], { env: { WEBLATE_TOKEN: token, ...env } });

describe('a crawl that cannot write', () => {
  it('stops with exit 1 naming the folder and what to do; the next run resumes it and loses nothing', async () => {
    const content = join(await folder(), 'content');
    const stopped = await crawl(content, { TMSNAP_TEST_WRITE_FAULT: 'ENOSPC:25' });
    expect(stopped.code, stopped.stderr).toBe(1);
    const lines = stopped.stderr.split('\n').filter((line) => line.includes('ENOSPC'));
    expect(lines).toEqual([
      `cannot write to ${join(content, 'objects')}: the disk holding ${join(content, 'objects')} is full (ENOSPC): free some space (or \`tmsnap prune\` old snapshots), then run the same command again; it resumes where it stopped and nothing stored so far is lost`,
    ]);
    expect(stopped.stderr).not.toMatch(/\n\s+at /); // one line, no stack trace
    const [partial] = (await readdir(join(content, 'snapshots'))).filter((name) => name.endsWith('.partial'));
    expect(partial).toBeDefined();

    const resumed = await crawl(content);
    expect(resumed.code, resumed.stderr).toBe(0);
    const snapshot = await openSnapshot(content);
    expect(`${snapshot.id}.partial`).toBe(partial);

    const clean = join(await folder(), 'content');
    expect((await crawl(clean)).code).toBe(0);
    const reference = await openSnapshot(clean);
    expect(snapshot.index.records).toEqual(reference.index.records);
    expect(snapshot.index.changes).toEqual(reference.index.changes);
    expect(snapshot.manifest.counts).toEqual(reference.manifest.counts);
  }, 120_000);

  it('names a read-only folder as such', async () => {
    const content = join(await folder(), 'content');
    const store = new ObjectStore(content, { compress: true, writeFault: failWritesAfter(0, 'EROFS') });
    const error = await store.putJson({ a: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreWriteError);
    expect((error as Error).message).toBe(
      `cannot write to ${join(content, 'objects')}: ${join(content, 'objects')} is not writable (EROFS): make it writable (or give --content a folder you can write), then run the same command again; it resumes where it stopped and nothing stored so far is lost`,
    );
  });
});
