import type { Executor } from '../db/client.ts';
import { operatorActions, type TOperatorRole } from '../modules/admin/admin.schema.ts';

// The operator audit log is written by every module an operator can act through (terms, sites,
// promotions, members, ...), inside that action's own transaction, so writing it is core: a
// module that records an action does not depend on the back office. Reading and verifying the
// log stay in admin/audit.ts.

/** The operator acting, as the session resolved them (admin.service authenticates). */
export type TOperatorAuth = {
  operatorId: bigint;
  siteId: bigint;
  role: TOperatorRole;
  username: string;
  /** The client address of the request (kept in audit entries). */
  ip?: string | null;
};

/** What an audit entry is about: a player, and/or any other record (entity + its id). */
export type TAuditTarget = { memberId?: bigint | null; entity?: string; entityId?: string };

/** JSON-safe copy of a before/after value: bigints as strings, dates as ISO strings. */
function snapshot(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(
    JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item)),
  );
}

/**
 * Appends one entry to the operator audit log (operator_actions, append-only by trigger): who
 * (operator, from which address), what (action on target), the state before and after. Pass the
 * transaction of the action itself so the entry exists exactly when the action happened.
 */
export async function recordOperatorAction(
  executor: Executor,
  operator: TOperatorAuth,
  action: string,
  target: TAuditTarget,
  before: unknown,
  after: unknown,
): Promise<void> {
  await executor.insert(operatorActions).values({
    siteId: operator.siteId,
    operatorId: operator.operatorId,
    action,
    memberId: target.memberId ?? null,
    entity: target.entity ?? null,
    entityId: target.entityId ?? null,
    details: {},
    before: snapshot(before),
    after: snapshot(after),
    ip: operator.ip ?? null,
  });
}
