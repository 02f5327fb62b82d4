import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serveStatic } from '../site/serve.ts';
import { type Command, CommandFailure, exitCodes, parseCommandLine, parsePort } from './command.ts';
import { untilInterrupted } from './signals.ts';

/** Not 4321 (Astro's dev server) nor any other common tool's: a preview must not collide with the dev server beside it. */
export const defaultPort = 4967;

const help = `Usage: tmsnap preview [options]

Serves a built site folder over HTTP on 127.0.0.1, like a plain static host would (GitHub
Pages): files as they are, index.html for a folder, nothing else.

Options:
  --out DIR     the built site, as given to tmsnap build --out (default: dist)
  --port N      port to listen on; 0 picks a free one (default: ${defaultPort}, away from the
                ports of Astro's, Vite's and other tools' own dev servers)
  -h, --help    this help`;

export const command: Command = {
  summary: 'serve a built site folder on 127.0.0.1',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, { out: { type: 'string', default: 'dist' }, port: { type: 'string', default: String(defaultPort) } });
    const given = values.out;
    const port = parsePort(values.port);
    const dist = resolve(given);
    if (!(await stat(join(dist, 'index.html')).catch(() => undefined))) {
      throw new CommandFailure(`no built site at ${dist} (no index.html): build it first with \`tmsnap build --out ${given}\``);
    }
    const server = await serveStatic(dist, port);
    console.log(server.url);
    console.error(`tmsnap preview: serving ${dist}. Ctrl-C stops it.`);
    await untilInterrupted();
    await server.close();
    return exitCodes.ok;
  },
};
