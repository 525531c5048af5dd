/**
 * Preloaded into a journey's server process (startServer's clockOffsetMs, never in production):
 * moves the process's wall clock by E2E_CLOCK_OFFSET_MS, so everything the server stamps — the
 * ledger, sessions, the embedded database's now(), which reads the same JavaScript clock — happens
 * at that distance from now. A journey plays "yesterday" on one server, then starts another on the
 * same data at the real time, where yesterday is a closed period the settlement can settle.
 */
const offset = Number(process.env.E2E_CLOCK_OFFSET_MS ?? 0);

if (Number.isFinite(offset) && offset !== 0) {
  const RealDate = Date;
  class OffsetDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = OffsetDate as DateConstructor;
}
