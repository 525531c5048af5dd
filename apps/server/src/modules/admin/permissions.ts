import {
  OPERATOR_PERMISSIONS,
  OPERATOR_ROLES,
  ROLE_PERMISSIONS,
  roleCan,
  type TOperatorRole,
  type TPermission,
} from '@sorte/contract';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../../errors.ts';
import { bearerToken } from '../auth/tokens.ts';
import { authenticateOperator, type TOperatorAuth } from './admin.service.ts';

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
}

/**
 * An onRequest hook: the operator bearer token of this site (a player token, none, an ended or
 * idle session: UNAUTHENTICATED 401) whose role has `permission` (else FORBIDDEN 403). Sets
 * request.operator for the handler (read it with operatorOf(request)).
 */
export function requirePermission(permission: TPermission): onRequestAsyncHookHandler {
  return async function checkPermission(request: FastifyRequest) {
    const operator = await authenticateOperator(
      request.server.services.db,
      request.site,
      bearerToken(request.headers.authorization),
    );
    request.operator = operator;
    if (!roleCan(operator.role, permission)) throw new AppError('FORBIDDEN');
  };
}

/** The operator set by requirePermission (a route without it has no operator: 401). */
export function operatorOf(request: FastifyRequest): TOperatorAuth {
  if (!request.operator) throw new AppError('UNAUTHENTICATED');
  return request.operator;
}
