import type {
  AccessControlProvider,
  AuthProvider,
  BaseRecord,
  CrudFilter,
  DataProvider,
  HttpError,
  I18nProvider,
} from '@refinedev/core';
import type { TAdminMeResponse, TPermission } from '@sorte/contract';
import { ApiError, api, session, type TOperatorSession, type TQuery } from './api.ts';
import i18n from './i18n.ts';
import { RESOURCES } from './resources.tsx';

/** Refine's error shape from the server's refusal (its translated message and field errors). */
function httpError(error: unknown): HttpError {
  if (error instanceof ApiError) {
    return { message: error.message, statusCode: error.statusCode, errors: error.errors, code: error.code };
  }
  return { message: i18n.t('errors.network'), statusCode: 0 };
}

async function call<T>(path: string, options: Parameters<typeof api>[1] = {}) {
  try {
    return await api<T>(path, options);
  } catch (error) {
    throw httpError(error);
  }
}

/** Refine filters → query parameters (equality filters of the list endpoints: status, username…). */
export function filtersToQuery(filters: CrudFilter[] | undefined): TQuery {
  const query: TQuery = {};
  for (const filter of filters ?? []) {
    if ('field' in filter && filter.value !== undefined && filter.value !== null && filter.value !== '') {
      query[filter.field] = Array.isArray(filter.value) ? filter.value.join(',') : String(filter.value);
    }
  }
  return query;
}

/** Where a resource's calls go: meta.path, else /admin/<resource>. */
const pathOf = (resource: string, meta?: Record<string, unknown>) =>
  typeof meta?.path === 'string' ? meta.path : `/admin/${resource}`;

/**
 * Our envelope API as a Refine data provider. Lists answer { list, total, page, page_size }
 * (server-side paging: ?page=&page_size=, filters as query parameters, sort=&order=).
 */
export const dataProvider: DataProvider = {
  getApiUrl: () => '/api',
  getList: async ({ resource, pagination, filters, sorters, meta }) => {
    const sort = sorters?.[0];
    const query: TQuery = {
      ...filtersToQuery(filters),
      ...(pagination?.mode === 'off'
        ? {}
        : { page: pagination?.currentPage ?? 1, page_size: pagination?.pageSize ?? 20 }),
      ...(sort ? { sort: sort.field, order: sort.order } : {}),
      ...((meta?.query as TQuery | undefined) ?? {}),
    };
    const { data } = await call<{ list: BaseRecord[]; total?: number }>(pathOf(resource, meta), { query });
    // biome-ignore lint/suspicious/noExplicitAny: Refine's generic list type is the caller's row type.
    return { data: data.list as any, total: data.total ?? data.list.length };
  },
  getOne: async ({ resource, id, meta }) => {
    const { data } = await call<BaseRecord>(`${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`);
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    return { data: data as any };
  },
  create: async ({ resource, variables, meta }) => {
    const { data } = await call<BaseRecord>(pathOf(resource, meta), { method: 'POST', body: variables });
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    return { data: data as any };
  },
  update: async ({ resource, id, variables, meta }) => {
    const { data } = await call<BaseRecord>(`${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`, {
      method: typeof meta?.method === 'string' ? meta.method : 'PUT',
      body: variables,
    });
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    return { data: data as any };
  },
  deleteOne: async ({ resource, id, meta }) => {
    const { data } = await call<BaseRecord>(`${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`, {
      method: 'DELETE',
    });
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    return { data: data as any };
  },
  custom: async ({ url, method, payload, query }) => {
    const { data } = await call<BaseRecord>(url, {
      method: method.toUpperCase(),
      ...(payload === undefined ? {} : { body: payload }),
      query: (query as TQuery | undefined) ?? {},
    });
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    return { data: data as any };
  },
};

let lastCheck = 0;
const CHECK_REUSE_MS = 15_000;

/** Operator sign-in with password + authenticator code; the token lives in this tab only. */
export const authProvider: AuthProvider = {
  login: async (params: { username: string; password: string; totp_code: string }) => {
    try {
      const { data } = await api<{ token: string; operator: TOperatorSession }>('/admin/auth/login', {
        body: params,
      });
      session.save(data.token, data.operator);
      lastCheck = 0;
      return { success: true, redirectTo: '/' };
    } catch (error) {
      return { success: false, error: httpError(error) as unknown as Error };
    }
  },
  logout: async () => {
    if (session.token()) await api('/admin/auth/logout', { body: {} }).catch(() => undefined);
    session.clear();
    lastCheck = 0;
    return { success: true, redirectTo: '/login' };
  },
  check: async () => {
    if (!session.token()) return { authenticated: false, redirectTo: '/login' };
    // Every guarded screen asks on mount: one answer serves them for a short while (any 401 of a
    // real call still signs out at once through onError).
    if (Date.now() - lastCheck < CHECK_REUSE_MS) return { authenticated: true };
    try {
      const { data } = await api<TAdminMeResponse>('/admin/auth/me');
      session.saveOperator(data.operator, data.site);
      lastCheck = Date.now();
      return { authenticated: true };
    } catch (error) {
      // A slow or unreachable server is not a signed-out operator: keep the session; the screen's
      // own calls show the error, and any 401 signs out through onError.
      if (!(error instanceof ApiError) || error.statusCode !== 401) return { authenticated: true };
      session.clear();
      return { authenticated: false, redirectTo: '/login', logout: true };
    }
  },
  onError: async (error: HttpError) => {
    // An ended or idle session: sign in again. A 403 is a refusal to show, not a logout.
    if (error?.statusCode === 401) {
      session.clear();
      lastCheck = 0;
      return { logout: true, redirectTo: '/login' };
    }
    return {};
  },
  getIdentity: async () => session.operator(),
  getPermissions: async () => session.operator()?.permissions ?? [],
};

/** Whether the signed-in operator's role has this permission (the server checks it again). */
export function can(permission: TPermission): boolean {
  return session.operator()?.permissions.includes(permission) ?? false;
}

/** Resources are open to operators whose role has the resource's permission. */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource }) => {
    const entry = RESOURCES.find((item) => item.name === resource);
    return { can: !entry || can(entry.permission) };
  },
};

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) =>
    i18n.exists(key) ? String(i18n.t(key, options)) : (defaultMessage ?? key),
  changeLocale: (lang) => i18n.changeLanguage(lang),
  getLocale: () => i18n.language,
};
