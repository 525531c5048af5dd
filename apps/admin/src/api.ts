import type { TAdminLoginResponse, TAdminMeResponse } from '@sorte/contract';
import i18n from './i18n.ts';

/** The operator session, per browser tab (sessionStorage: closing the tab signs out). */
const TOKEN_KEY = 'sorte-admin-token';
const OPERATOR_KEY = 'sorte-admin-operator';
const SITE_KEY = 'sorte-admin-site';

export type TOperatorSession = TAdminLoginResponse['operator'];

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  operator: (): TOperatorSession | null => {
    const raw = sessionStorage.getItem(OPERATOR_KEY);
    return raw ? (JSON.parse(raw) as TOperatorSession) : null;
  },
  save(token: string, operator: TOperatorSession) {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(OPERATOR_KEY, JSON.stringify(operator));
  },
  saveOperator(operator: TOperatorSession, site?: TAdminMeResponse['site']) {
    sessionStorage.setItem(OPERATOR_KEY, JSON.stringify(operator));
    if (site) sessionStorage.setItem(SITE_KEY, JSON.stringify(site));
  },
  /** The site of this back office (name, code, jurisdiction), known after the session check. */
  site: (): TAdminMeResponse['site'] | null => {
    const raw = sessionStorage.getItem(SITE_KEY);
    return raw ? (JSON.parse(raw) as TAdminMeResponse['site']) : null;
  },
  clear() {
    sessionStorage.removeItem(SITE_KEY);
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(OPERATOR_KEY);
  },
};

/** A refused call: the server's translated message, its code, HTTP status and field errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
    readonly code: string,
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The server's language code for the back office's language. */
export function serverLang(): string {
  const lang = i18n.language;
  return lang === 'pt' || lang === 'cn' ? lang : 'en';
}

export type TQuery = Record<string, string | number | boolean | null | undefined>;

function urlOf(path: string, query: TQuery = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  params.set('lang', serverLang());
  return `/api${path}?${params.toString()}`;
}

function headers(json: boolean): Record<string, string> {
  const token = session.token();
  return {
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

/** Calls /api<path> and returns the envelope's data and message; a refusal throws ApiError. */
export async function api<T>(
  path: string,
  options: { method?: string; body?: unknown; query?: TQuery } = {},
): Promise<{ data: T; message: string }> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), {
      method,
      headers: headers(options.body !== undefined),
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new ApiError(i18n.t('errors.network'), 0, 'NETWORK');
  }
  const envelope = (await response.json().catch(() => null)) as {
    status: string;
    code: string | number;
    message: string;
    data: T;
    errors?: Record<string, string>;
  } | null;
  if (!envelope) throw new ApiError(i18n.t('errors.network'), response.status, 'NOT_JSON');
  if (!response.ok || envelope.status !== 'success') {
    throw new ApiError(envelope.message, response.status, String(envelope.code), envelope.errors ?? {});
  }
  return { data: envelope.data, message: envelope.message };
}

/** Downloads a CSV export (`format=csv`) of an admin list with the operator's token. */
export async function downloadCsv(path: string, query: TQuery, fallbackName: string): Promise<void> {
  const response = await fetchAttachment(urlOf(path, { ...query, format: 'csv', page: undefined }), 'CSV');
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${fallbackName}.csv`;
  saveAs(await response.blob(), name);
}

/** Downloads a file the server sends as an attachment (e.g. a regulator file) with the operator's token. */
export async function downloadFile(path: string, name: string): Promise<void> {
  const response = await fetchAttachment(urlOf(path), 'DOWNLOAD');
  saveAs(await response.blob(), name);
}

/** A file the server sends (e.g. an identity document), as a blob for an object URL. */
export async function fetchBlob(path: string): Promise<Blob> {
  return (await fetchAttachment(urlOf(path), 'DOWNLOAD')).blob();
}

/** An attachment fetched with the operator's token; a refusal throws the server's message. */
async function fetchAttachment(url: string, code: string): Promise<Response> {
  const response = await fetch(url, { headers: headers(false) });
  if (!response.ok) {
    const envelope = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(envelope?.message ?? i18n.t('errors.network'), response.status, code);
  }
  return response;
}

/** Hands a downloaded file to the browser's save (a link clicked and removed). */
function saveAs(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
