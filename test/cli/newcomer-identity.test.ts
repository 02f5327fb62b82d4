/**
 * What a newcomer reads from the CLI (issue 28): counts in the right number, and a demo whose
 * reference server keeps its address from one run to the next, so a rerun crawls incrementally.
 */
import { createServer } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { counted } from '../../cli/count.ts';
import { demoPortFile, startDemoServer } from '../../cli/demo.ts';
import { fixtureModel } from '../helpers/reference-server.ts';
import { useTempFolders } from '../helpers/temp.ts';

const tempFolder = useTempFolders('tmsnap-identity-', 'all');

describe('counts the CLI prints', () => {
  it('takes the singular for one and the plural otherwise', () => {
    expect(counted(1, 'snapshot', 'snapshots')).toBe('1 snapshot');
    expect(counted(0, 'snapshot', 'snapshots')).toBe('0 snapshots');
    expect(counted(2, 'crawl', 'crawls')).toBe('2 crawls');
  });
});

describe('the demo reference server', () => {
  it('listens on the same port as the last run in the same folder', async () => {
    const dir = await tempFolder();
    const first = await startDemoServer(dir, { model: fixtureModel() });
    await first.close();
    const second = await startDemoServer(dir, { model: fixtureModel() });
    await second.close();
    expect(second.url).toBe(first.url);
    expect(await readFile(join(dir, demoPortFile), 'utf8')).toBe(`${new URL(first.url).port}\n`);
  });

  it('takes a free port when the remembered one is taken', async () => {
    const dir = await tempFolder();
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const taken = (blocker.address() as { port: number }).port;
    await writeFile(join(dir, demoPortFile), `${taken}\n`);
    try {
      const server = await startDemoServer(dir, { model: fixtureModel() });
      await server.close();
      expect(new URL(server.url).port).not.toBe(String(taken));
      expect(await readFile(join(dir, demoPortFile), 'utf8')).toBe(`${new URL(server.url).port}\n`);
    } finally {
      await new Promise((done) => blocker.close(done));
    }
  });
});
