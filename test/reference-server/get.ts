import { parseJson } from '../../api/json.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed losslessly (64-bit integers stay exact); undefined when it is not JSON. */
  json: unknown;
}

/** One request over a real socket, body read whole. */
export async function get(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, headers: { Accept: 'application/json', ...init.headers } });
  const text = await response.text();
  let json: unknown;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json')) json = parseJson(text);
  return { status: response.status, headers: response.headers, text, json };
}
