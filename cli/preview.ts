import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serveStatic } from '../site/serve.ts';
import { type Command, UsageError, exitCodes, parseCommandLine } from './command.ts';
import { untilInterrupted } from './signals.ts';

const help = `Usage: tmsnap preview [options]

Serves a built site folder over HTTP on 127.0.0.1, like a plain static host would (GitHub
Pages): files as they are, index.html for a folder, nothing else.

Options:
  --dist DIR    the built site (default: dist)
  --port N      port to listen on; 0 picks a free one (default: 4321)
  -h, --help    this help`;

export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port "${text}" is not a port number (0 to 65535)`);
  return port;
}

export const command: Command = {
  summary: 'serve a built site folder on 127.0.0.1',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, { dist: { type: 'string', default: 'dist' }, port: { type: 'string', default: '4321' } });
    const dist = resolve(values.dist);
    if (!(await stat(join(dist, 'index.html')).catch(() => undefined))) {
      throw new UsageError(`${dist} holds no index.html: build the site first with \`tmsnap build --out ${values.dist}\``);
    }
    const server = await serveStatic(dist, parsePort(values.port));
    console.log(server.url);
    console.error(`tmsnap preview: serving ${dist}. Ctrl-C stops it.`);
    await untilInterrupted();
    await server.close();
    return exitCodes.ok;
  },
};
