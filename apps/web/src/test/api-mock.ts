import { vi } from 'vitest';

export interface TMockCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type TMockResponse = { status?: number; body: unknown };
/** A handler may answer later (a promise), to model a request still in flight. */
type THandler = (call: TMockCall) => TMockResponse | Promise<TMockResponse>;

/** Replaces fetch with handlers keyed by "METHOD /path"; records every call. */
export function mockApi(handlers: Record<string, THandler>) {
  const calls: TMockCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: TMockCall = {
      url,
      method,
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    const result = handler ? await handler(call) : { status: 404, body: fail('NOT_FOUND', 'Not found') };
    return new Response(JSON.stringify(result.body), {
      status: result.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const ok = <T>(data: T) => ({ status: 'success', code: 200, message: 'Success', data });
export const fail = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  status: 'fail',
  code,
  message,
  data: null,
  ...extra,
});
