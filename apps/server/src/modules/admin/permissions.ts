import {
  OPERATOR_PERMISSIONS,
  OPERATOR_ROLES,
  ROLE_PERMISSIONS,
  roleCan,
  type TOperatorRole,
  type TPermission,
} from '@sorte/contract';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { TOperatorAuth } from '../../core/audit.ts';
import { AppError } from '../../errors.ts';
import { bearerToken } from '../sessions/tokens.ts';
import { authenticateOperator } from './admin.service.ts';

/**
 * Back-office roles and permissions (the table itself lives in @sorte/contract so the admin app
 * shows only what the operator may use). Every /api/admin route declares the one permission it
 * needs with `onRequest: requirePermission('…')`.
 */
export {
  OPERATOR_PERMISSIONS,
  OPERATOR_ROLES,
  ROLE_PERMISSIONS,
  roleCan,
  type TOperatorRole,
  type TPermission,
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator behind the bearer token, set by requirePermission on /api/admin routes. */
    operator: TOperatorAuth | null;
  }
  interface FastifyInstance {
    /** "METHOD /api/admin/…" → the permission the route requires (filled as routes register). */
    adminPermissions: Map<string, TPermission>;
  }
}

const PERMISSION = Symbol('permission');
type TPermissionHook = onRequestAsyncHookHandler & { [PERMISSION]?: TPermission };

/** Back-office routes anyone may call (they are how an operator gets a token in the first place). */
export const PUBLIC_ADMIN_ROUTES = new Set([
  'POST /api/admin/auth/login',
  'GET /api/admin/setup',
  'POST /api/admin/setup',
]);

/**
 * An onRequest hook: the operator bearer token of this site (a player token, none, an ended or
 * idle session: UNAUTHENTICATED 401) whose role has `permission` (else FORBIDDEN 403). Sets
 * request.operator for the handler (read it with operatorOf(request)).
 */
export function requirePermission(permission: TPermission): onRequestAsyncHookHandler {
  const hook: TPermissionHook = async function checkPermission(request: FastifyRequest) {
    const operator = await authenticateOperator(
      request.server.services.db,
      request.site,
      bearerToken(request.headers.authorization),
    );
    request.operator = { ...operator, ip: request.ip ?? null };
    if (!roleCan(operator.role, permission)) throw new AppError('FORBIDDEN');
  };
  hook[PERMISSION] = permission;
  return hook;
}

function permissionOf(route: RouteOptions): TPermission | undefined {
  const hooks = [route.onRequest ?? []].flat() as TPermissionHook[];
  return hooks.find((hook) => hook[PERMISSION])?.[PERMISSION];
}

/**
 * Registered before the routes: every /api/admin route must declare its permission with
 * requirePermission (else the server refuses to start), the permission goes into the route's
 * OpenAPI description, and app.adminPermissions lists them all (the role-check test walks it).
 */
export const adminPermissionsPlugin = fp(
  async (app: FastifyInstance) => {
    const permissions = new Map<string, TPermission>();
    app.decorate('adminPermissions', permissions);
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api/admin/') || route.method === 'HEAD') return;
      const methods = [route.method].flat().filter((method) => method !== 'HEAD');
      const permission = permissionOf(route);
      for (const method of methods) {
        const key = `${method} ${route.url}`;
        if (PUBLIC_ADMIN_ROUTES.has(key)) continue;
        if (!permission) throw new Error(`${key} has no requirePermission(...) on onRequest`);
        permissions.set(key, permission);
      }
      if (permission && route.schema) {
        const note = `Requires the operator permission \`${permission}\`.`;
        route.schema.description = route.schema.description ? `${route.schema.description}\n\n${note}` : note;
      }
    });
  },
  { name: 'admin-permissions' },
);

/** The operator set by requirePermission (a route without it has no operator: 401). */
export function operatorOf(request: FastifyRequest): TOperatorAuth {
  if (!request.operator) throw new AppError('UNAUTHENTICATED');
  return request.operator;
}
