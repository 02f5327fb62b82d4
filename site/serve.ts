/**
 * A static server for a built site, like a plain static host (GitHub Pages): files as they are,
 * `index.html` for a folder, the site's `404.html` (status 404) for anything missing. `tmsnap preview`, `tmsnap demo` and the browser
 * tests all use it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/atom+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.po': 'text/x-gettext-catalog; charset=utf-8',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` on 127.0.0.1; never a file outside it, whatever the request path says. */
export async function serveStatic(root: string, port = 0): Promise<StaticServer> {
  const base = resolve(root);
  // `answer` catches every failure of its own, so the promise it returns never rejects.
  const server = createServer((request, response) => void answer(base, request, response));
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

/** One request: the file under `base` it names, else the site's 404 page, else a plain status. */
async function answer(base: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
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
    const notFound = join(base, '404.html');
    if (
      await stat(notFound).then(
        (s) => s.isFile(),
        () => false,
      )
    ) {
      response.writeHead(404, { 'Content-Type': types['.html'] });
      createReadStream(notFound).pipe(response);
    } else {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
    return;
  }
  response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
}
