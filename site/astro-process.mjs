// The process Astro's build runs in (site/astro-build.ts), started by site/build.ts in the build's
// staging folder. It gets one `AstroRun` message, reports each page rendered (quiet builds) and
// relays the unit positions' channel (site-model/positions.ts) between the build's bulk writers,
// which are threads of the parent, and the changes pages here. Plain JavaScript, loading
// TypeScript through tsx as site/bulk-worker.mjs does.
import { tsImport } from 'tsx/esm/api';

const { runAstroBuild } = await tsImport('./astro-build.ts', import.meta.url);
const { positionsChannel } = await tsImport('../site-model/positions.ts', import.meta.url);

// A build whose parent is gone has no one to write for.
process.on('disconnect', () => process.exit(1));

const send = (message) => new Promise((done) => process.send(message, () => done()));

process.once('message', async (run) => {
  const relay = run.input.positions === undefined ? undefined : positionsChannel(run.input.positions);
  if (relay) relay.onmessage = (event) => process.send({ kind: 'positions', message: event.data });
  process.on('message', (message) => {
    if (message.kind === 'positions') relay?.postMessage(message.message);
  });
  try {
    await runAstroBuild(run, run.verbose ? undefined : () => process.send({ kind: 'page' }));
    await send({ kind: 'done' });
    process.exit(0);
  } catch (error) {
    const cause = error?.cause;
    await send({
      kind: 'failed',
      message: error?.message ?? String(error),
      stack: error?.stack,
      cause: cause === undefined ? undefined : (cause?.message ?? String(cause)),
    });
    process.exit(1);
  }
});
