import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A plain HTTP forwarder on 127.0.0.1, port 0, that remembers the path of every request it passes on. */
export interface CountingProxy {
  /** The target's API root, seen through the proxy. */
  url: string;
  /** Paths (no query) of the requests received, in order. */
  readonly paths: readonly string[];
  close(): Promise<void>;
}

/**
 * Puts a real socket between the crawler and a server so that a test can count what the
 * server was asked for, by path. The Host header is passed on unchanged, so the server builds
 * its links on the proxy's origin and the crawl stays behind the proxy.
 */
export async function startCountingProxy(targetApiRoot: string): Promise<CountingProxy> {
  const target = new URL(targetApiRoot);
  const paths: string[] = [];
  const server = createServer((incoming, outgoing) => {
    paths.push(new URL(incoming.url ?? '/', 'http://proxy').pathname);
    const forwarded = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
