import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step = (request: IncomingMessage, response: ServerResponse) => void;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/` */
  origin: string;
  /** Every request received, in order. */
  hits: IncomingMessage[];
  close(): Promise<void>;
}

/**
 * A node:http server on 127.0.0.1 port 0 answering request n with `steps[n]` (the last step
 * repeats), in the style of undici's scripted-misbehaviour tests.
 */
export async function startScriptedServer(steps: Step[]): Promise<ScriptedServer> {
  const hits: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    const step = steps[Math.min(hits.length, steps.length - 1)];
    hits.push(request);
    step?.(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}/`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json =
  (body: string, status = 200, headers: Record<string, string> = {}): Step =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(body);
  };

export const html =
  (status: number): Step =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Bad gateway</title>');
  };

/** Closes the socket without an answer, as a crashing proxy does. */
export const drop: Step = (request) => request.socket.destroy();

/** Never answers: for timeouts. */
export const stall: Step = () => {};

/**
 * Relays each request to the server at `origin` (its Authorization kept) and the answer back,
 * the server's links turned into the proxy's own: a server in between, as a front end that
 * misbehaves is. `edit.target` may change the URL asked for; `edit.text` sees (and may change)
 * each answer's text.
 */
export const relayTo =
  (origin: string, edit: { target?: (url: URL) => void; text?: (text: string, url: URL) => string } = {}): Step =>
  async (request, response) => {
    const target = new URL(request.url ?? '/', origin);
    edit.target?.(target);
    const answer = await fetch(target, { headers: { accept: 'application/json', authorization: request.headers.authorization ?? '' } });
    const text = (await answer.text()).replaceAll(origin, `http://${request.headers.host ?? ''}`);
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
    response.end(edit.text ? edit.text(text, target) : text);
  };
