// The process Astro's build runs in (site/astro-build.ts), started by site/build.ts in the build's
// staging folder. It gets one `AstroRun` message and reports each page rendered (quiet builds).
import { type AstroRun, runAstroBuild } from './astro-build.ts';

/** This process's own CPU seconds (every thread) and peak RSS, which its parent's figures leave out (bench/build.ts). */
export interface AstroUsage {
  cpuSeconds: number;
  maxRssKb: number;
}

/** What this process and site/build.ts tell each other. */
export type AstroProcessMessage =
  { kind: 'page' } | { kind: 'done'; usage: AstroUsage } | { kind: 'failed'; message: string; stack: string | undefined; cause: string | undefined };

// A build whose parent is gone has no one to write for.
process.on('disconnect', () => process.exit(1));

const send = (message: AstroProcessMessage) => new Promise<void>((done) => process.send!(message, undefined, {}, () => done()));

process.once('message', (run: AstroRun) => {
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
