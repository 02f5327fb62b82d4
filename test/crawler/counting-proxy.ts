import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A plain HTTP forwarder on 127.0.0.1, port 0, that remembers the path of every request it passes on. */
export interface CountingProxy {
  /** The target's API root, seen through the proxy. */
  url: string;
  /** Paths (no query) of the requests received, in order. */
  readonly paths: readonly string[];
  /** Paths with their query, in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

export interface HoldOptions {
  /** The first request whose path matches is answered only after… */
  path: RegExp;
  /** …this many more requests (any path) have arrived: a count, not a clock, so no test depends on timing. */
  until: number;
}

/**
 * Puts a real socket between the crawler and a server so that a test can count what the
 * server was asked for, by path. The Host header is passed on unchanged, so the server builds
 * its links on the proxy's origin and the crawl stays behind the proxy. With `hold`, one
 * answer waits while the client goes on asking for other things: what the client sends
 * meanwhile shows whether it waits for that answer before sending its siblings.
 */
export async function startCountingProxy(targetApiRoot: string, hold?: HoldOptions): Promise<CountingProxy> {
  const target = new URL(targetApiRoot);
  const paths: string[] = [];
  const requests: string[] = [];
  let held: { at: number; release: () => void } | undefined;
  let holding = hold !== undefined;
  const server = createServer((incoming, outgoing) => {
    const asked = new URL(incoming.url ?? '/', 'http://proxy');
    const path = asked.pathname;
    paths.push(path);
    requests.push(`${path}${asked.search}`);
    const index = paths.length - 1;
    if (held !== undefined && index - held.at >= (hold?.until ?? 0)) {
      held.release();
      held = undefined;
    }
    let gate = Promise.resolve();
    if (holding && hold?.path.test(path)) {
      holding = false;
      gate = new Promise<void>((resolve) => {
        held = { at: index, release: resolve };
      });
    }
    const forwarded = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        void gate.then(() => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        });
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  // The reference server's keep-alive (65 s, nginx's), not Node's 5 s: on a loaded machine the
  // crawler reused pooled connections just as the proxy dropped them, and each ECONNRESET's retry
  // counted as a request beyond the minimum.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    paths,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        held?.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
