import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { raisedRateLimit } from '../../packages/reference-server/rate-limit.ts';
import { holdArchiveLock } from '../helpers/lock-holder.ts';
import { useReferenceServer } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';
import { tmsnap } from '../helpers/tmsnap.ts';

/**
 * Issue 11: a crawl the archive stops (another writer holds its lock, or the disk refuses a
 * write) exits 1 and says so in one line; no summary with an empty snapshot id and zero
 * requests comes before it. The whole output is checked, progress lines aside.
 */

const token = 'wlu_stop_line';
const server = useReferenceServer({ behaviours: { tokens: [token], rateLimit: raisedRateLimit } });
const folder = useTempFolders('tmsnap-stop-line-');

/** stderr's lines less the progress lines a log gets while the crawl runs (`phase N | …`). */
function said(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !/^step \d+\/\d+ \(.*\) \| /.test(line));
}

describe('a crawl stopped by its archive', () => {
  it('prints one line naming the writer that holds the lock, and nothing on stdout', async () => {
    const content = join(await folder(), 'content');
    const held = await holdArchiveLock(content, 'prune');
    try {
      const result = await tmsnap(['crawl', '--url', server().url, '--content', content], { env: { WEBLATE_TOKEN: token } });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      const lines = said(result.stderr);
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toContain(`tmsnap prune\` (pid ${held.pid}`);
      expect(result.stderr).not.toMatch(/crawl stopped|requests made/);
    } finally {
      expect(await held.stop()).toBe(0);
    }
  });

  it('prints one line when the disk is full, and nothing on stdout', async () => {
    const content = join(await folder(), 'content');
    const result = await tmsnap(['crawl', '--url', server().url, '--content', content], {
      env: { WEBLATE_TOKEN: token, TMSNAP_TEST_WRITE_FAULT: 'ENOSPC:25' },
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(said(result.stderr)).toEqual([
      `cannot write to ${join(content, 'objects')}: the disk holding ${join(content, 'objects')} is full (ENOSPC): free some space (or \`tmsnap prune\` old snapshots), then run the same command again; it resumes where it stopped and nothing stored so far is lost`,
    ]);
  }, 120_000);
});
