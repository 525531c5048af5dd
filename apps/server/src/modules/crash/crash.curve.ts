/**
 * The multiplier curve of a running round: m(t) = e^(GROWTH · t) for t milliseconds since the
 * start, floored to hundredths (so 1.00× at the start, 2.00× after about 11.55 s). The round
 * crashes at the first instant the curve reaches its pre-committed crash point; every decision
 * (tick, cash-out, auto cash-out, crash) is made from this one function of server time.
 */

export const GROWTH_PER_MS = 0.00006;
/** Longest a round can run: the curve reaches the 1,000,000× ceiling after about 230 s. */
export const MAX_RUNNING_MS = 240_000;

/** m(t) in hundredths (237 = 2.37×) for t ms since the start. */
export function multiplierAt(elapsedMs: number): number {
  if (!(elapsedMs > 0)) return 100;
  const t = Math.min(elapsedMs, MAX_RUNNING_MS);
  return Math.floor(100 * Math.exp(GROWTH_PER_MS * t) + 1e-9);
}

/** The multiplier of the tick current at `elapsedMs` (ticks every `tickMs` from the start). */
export function tickMultiplierAt(elapsedMs: number, tickMs: number): number {
  return multiplierAt(Math.floor(Math.max(0, elapsedMs) / tickMs) * tickMs);
}

/** Whether a round with this crash point has crashed by `elapsedMs`. */
export function hasCrashed(elapsedMs: number, crashHundredths: number): boolean {
  return multiplierAt(elapsedMs) >= crashHundredths;
}

/** "2.37" from 237 hundredths. */
export function formatHundredths(hundredths: number): string {
  const whole = Math.floor(hundredths / 100);
  const cents = hundredths % 100;
  return `${whole}.${cents.toString().padStart(2, '0')}`;
}

/** 237 from "2.37" / "2.3" / "2"; null when not a multiplier with at most two decimals. */
export function parseHundredths(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
