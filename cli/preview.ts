import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { type Command, UsageError, exitCodes, parseCommandLine } from './command.ts';
import { untilInterrupted } from './signals.ts';

const help = `Usage: tmsnap preview [options]

Serves a built site folder over HTTP on 127.0.0.1, like a plain static host would (GitHub
Pages): files as they are, index.html for a folder, nothing else.

Options:
  --dist DIR    the built site (default: dist)
  --port N      port to listen on; 0 picks a free one (default: 4321)
  -h, --help    this help`;

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/atom+xml',
  '.json': 'application/json',
  '.po': 'text/x-gettext-catalog; charset=utf-8',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` on 127.0.0.1; never a file outside it, whatever the request path says. */
export async function serveStatic(root: string, port = 0): Promise<StaticServer> {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end('bad request');
      return;
    }
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

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
