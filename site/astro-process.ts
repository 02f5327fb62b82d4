// The process Astro's build runs in (site/astro-build.ts), started by site/build.ts in the build's
// staging folder. It gets one `AstroRun` message, reports each page rendered (quiet builds) and
// relays the unit positions' channel (site-model/positions.ts) between the build's bulk writers,
// which are threads of the parent, and the changes pages here.
import { type AstroRun, runAstroBuild } from './astro-build.ts';
import { positionsChannel } from '../site-model/positions.ts';

/** This process's own CPU seconds (every thread) and peak RSS, which its parent's figures leave out (bench/build.ts). */
export interface AstroUsage {
  cpuSeconds: number;
  maxRssKb: number;
}

/** What this process and site/build.ts tell each other. */
export type AstroProcessMessage =
  | { kind: 'page' }
  | { kind: 'done'; usage: AstroUsage }
  | { kind: 'positions'; message: unknown }
  | { kind: 'failed'; message: string; stack: string | undefined; cause: string | undefined };

// A build whose parent is gone has no one to write for.
process.on('disconnect', () => process.exit(1));

const send = (message: AstroProcessMessage) => new Promise<void>((done) => process.send!(message, undefined, {}, () => done()));

process.once('message', (run: AstroRun) => {
  const relay = run.input.positions === undefined ? undefined : positionsChannel(run.input.positions);
  if (relay) relay.onmessage = (event) => process.send!({ kind: 'positions', message: (event as MessageEvent).data } satisfies AstroProcessMessage);
  process.on('message', (message: AstroProcessMessage | AstroRun) => {
    if ('kind' in message && message.kind === 'positions') relay?.postMessage(message.message);
  });
  void runAstroBuild(run, run.verbose ? undefined : () => process.send!({ kind: 'page' } satisfies AstroProcessMessage)).then(
    async () => {
      const usage = process.resourceUsage();
      await send({ kind: 'done', usage: { cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, maxRssKb: usage.maxRSS } });
      process.exit(0);
    },
    async (error: unknown) => {
      const failure = error as { message?: string; stack?: string; cause?: { message?: string } } | undefined;
      const cause = failure?.cause;
      await send({
        kind: 'failed',
        message: failure?.message ?? String(error),
        stack: failure?.stack,
        cause: cause === undefined ? undefined : (cause?.message ?? String(cause)),
      });
      process.exit(1);
    },
  );
});
