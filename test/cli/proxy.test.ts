import { type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ReferenceServer } from '../helpers/reference-server.ts';
import { tmsnap } from '../helpers/tmsnap.ts';
import { useTempFolders } from '../helpers/temp.ts';

/**
 * `tmsnap crawl` honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY (issue 12). The proxy here runs on
 * 127.0.0.1 and sends every connection, CONNECT tunnel or forwarded request, to the reference
 * server on 127.0.0.1 whatever host was asked: the crawl URL names `weblate.test`, a name that
 * resolves nowhere, so the crawl can only succeed through the proxy, and nothing leaves the machine.
 */

interface LoggingProxy {
  url: string;
  /** The host:port each connection or request asked for. */
  asked: string[];
  close(): Promise<void>;
}

async function startProxy(targetPort: number): Promise<LoggingProxy> {
  const asked: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    // A forwarded request in absolute form: http://weblate.test:PORT/api/...
    const target = new URL(request.url ?? '/');
    asked.push(target.host);
    const upstream = httpRequest(
      { host: '127.0.0.1', port: targetPort, method: request.method, path: target.pathname + target.search, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    asked.push(request.url ?? '');
    const upstream = connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('crawl through a proxy', () => {
  let server: ReferenceServer;
  let proxy: LoggingProxy;
  let scratch: string;
  const tempFolder = useTempFolders('tmsnap-proxy-', 'all');
  beforeAll(async () => {
    server = await startTestServer();
    proxy = await startProxy(Number(new URL(server.url).port));
    scratch = await tempFolder();
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  it('reaches a server only the proxy can reach when HTTP_PROXY names it', async () => {
    const port = new URL(server.url).port;
    const run = await tmsnap(['crawl', '--url', `http://weblate.test:${port}/api/`, '--content', join(scratch, 'via-proxy')], {
      env: { HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '', no_proxy: '' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.asked.length).toBeGreaterThan(0);
    expect(new Set(proxy.asked)).toEqual(new Set([`weblate.test:${port}`]));
  }, 120_000);

  it('goes direct to a host NO_PROXY lists', async () => {
    const before = proxy.asked.length;
    const run = await tmsnap(['crawl', '--url', server.url, '--content', join(scratch, 'direct')], {
      env: { HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.asked.length).toBe(before);
  }, 120_000);
});
