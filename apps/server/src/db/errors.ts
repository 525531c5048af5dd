/** How deep a driver's error may wrap the PostgreSQL one (drizzle wraps once; a guard against cycles). */
const MAX_CAUSES = 8;

/**
 * Whether `error` is a unique violation (SQLSTATE 23505) of a constraint whose name contains
 * `constraint`. node-postgres names the constraint; PGlite and drizzle's wrapper may only say it in
 * the message, and either may sit in the `cause` chain.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < MAX_CAUSES; depth++) {
    const {
      code,
      constraint: name,
      message,
    } = current as { code?: string; constraint?: string; message?: string };
    if (code === '23505' && ((name ?? '').includes(constraint) || (message ?? '').includes(constraint)))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
