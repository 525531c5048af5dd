import { type PixPayment, PspError } from '../payments/psp/psp.client.ts';
import type { PspConnection } from '../payments/psp/psp.connection.ts';
import type { PixHint } from '../payments/psp/psp.webhook.ts';
import {
  claimReconcileRun,
  findDepositPayerCheck,
  findMemberProfile,
  findOrderByTxid,
  finishReconcileRun,
} from './deposits.repo.ts';
import {
  applyPixNotification,
  type PayerProof,
  type PixOutcome,
  type TDepositDeps,
} from './deposits.service.ts';

/**
 * From "the PSP says a Pix arrived" to a credit, on what the PSP itself answers our authenticated
 * client (ADR 031): a callback only names endToEndIds; each is read back with `GET /pix/{e2eid}`,
 * and the reconciliation job reads `GET /pix` pages. Both paths end in applyPixNotification, which
 * credits once per endToEndId whichever comes first.
 */

/** How far around the Pix's time the payer query looks (the PSP's clock and ours differ a little). */
const PAYER_QUERY_MARGIN_MS = 15 * 60_000;

/**
 * The payer proof the site's profile asks for. `own_cpf`: `GET /pix?cpf=<member's CPF>&txid=` must
 * list this endToEndId (the standard's "Filtro pelo CPF do pagador"). A member without a CPF on
 * file can only be proven by a PSP's payer extension read back from the PSP, and is then bound to
 * it. A PSP that cannot be asked right now throws: nothing is credited or refunded until it answers.
 */
async function payerProof(psp: PspConnection, deps: TDepositDeps, pix: PixPayment): Promise<PayerProof> {
  const order = pix.txid ? await findOrderByTxid(deps.db, pix.txid) : null;
  // A replay (the job reads the same Pix for two hours) needs no proof: it changes no money.
  if (!order || order.endToEndId === pix.endToEndId) return null;
  if ((await findDepositPayerCheck(deps.db, order.siteId)) === 'none') return null;
  const member = await findMemberProfile(deps.db, order.siteId, order.memberId);
  const candidate = member?.cpf ?? pix.payer?.cpf ?? null;
  if (!candidate) return { cpf: null };
  const page = await psp.client.listPix({
    from: new Date(pix.paidAt.getTime() - PAYER_QUERY_MARGIN_MS),
    to: new Date(pix.paidAt.getTime() + PAYER_QUERY_MARGIN_MS),
    txid: order.txid,
    payerCpf: candidate,
  });
  const listed = page.items.some((item) => item.endToEndId === pix.endToEndId);
  return { cpf: listed ? candidate : null };
}

/** Applies a Pix the PSP reported to our client, with the payer proof its site needs. */
export async function settleReadPix(deps: TDepositDeps, pix: PixPayment): Promise<PixOutcome> {
  const psp = deps.psp.connection();
  return applyPixNotification(deps, pix, await payerProof(psp, deps, pix));
}

export type CallbackOutcome = PixOutcome | 'unknown_pix';

/**
 * One callback item: read the Pix back and apply it. A Pix the PSP does not know (a forged or
 * mistaken callback) changes nothing; a PSP that cannot answer now throws, so the callback gets a
 * 5xx and is delivered again (the reconciliation job also finds it).
 */
export async function settlePixHint(deps: TDepositDeps, hint: PixHint): Promise<CallbackOutcome> {
  const psp = deps.psp.connection();
  let pix: PixPayment;
  try {
    pix = await psp.client.getPix(hint.endToEndId);
  } catch (error) {
    if (error instanceof PspError && error.code === 'PSP_NOT_FOUND') {
      deps.log.warn({ endToEndId: hint.endToEndId }, 'callback for a Pix the PSP does not know; ignored');
      return 'unknown_pix';
    }
    throw error;
  }
  return settleReadPix(deps, pix);
}

export interface ReconcileOptions {
  now?: Date;
  /** One run per period across processes. */
  periodMs?: number;
  /** How far back each run reads; longer than the period, so a failed run is covered by the next. */
  lookbackMs?: number;
  /** The claim's name (tests use their own so a server's own job cannot take their period). */
  job?: string;
  maxPages?: number;
}

export const RECONCILE_PERIOD_MS = 5 * 60_000;
const RECONCILE_LOOKBACK_MS = 2 * 60 * 60_000;
const RECONCILE_MAX_PAGES = 50;
const RECONCILE_PAGE_SIZE = 100;

/**
 * The missed-callback job: `GET /pix?inicio&fim` page by page over the lookback window, every Pix
 * of a txid applied (idempotent with the callback path). Returns how many were credited, or null
 * when another process has this period.
 */
export async function reconcilePix(
  deps: TDepositDeps,
  options: ReconcileOptions = {},
): Promise<number | null> {
  const psp = deps.psp.attached;
  if (!psp) return null;
  const now = options.now ?? new Date();
  const periodMs = options.periodMs ?? RECONCILE_PERIOD_MS;
  const job = options.job ?? 'pix';
  const period = new Date(Math.floor(now.getTime() / periodMs) * periodMs).toISOString();
  if (!(await claimReconcileRun(deps.db, job, period))) return null;
  const from = new Date(now.getTime() - (options.lookbackMs ?? RECONCILE_LOOKBACK_MS));
  let seen = 0;
  let credited = 0;
  for (let page = 0, pages = 1; page < pages && page < (options.maxPages ?? RECONCILE_MAX_PAGES); page++) {
    const result = await psp.client.listPix({ from, to: now, page, perPage: RECONCILE_PAGE_SIZE });
    pages = result.pages;
    if (result.skipped > 0) deps.log.warn({ skipped: result.skipped, page }, 'odd Pix items skipped');
    for (const pix of result.items) {
      if (!pix.txid) continue;
      seen += 1;
      if ((await settleReadPix(deps, pix)) === 'credited') credited += 1;
    }
  }
  await finishReconcileRun(deps.db, { job, period, seen, credited });
  if (credited > 0)
    deps.log.warn({ credited, period }, 'reconciliation credited Pix whose callback was missed');
  return credited;
}
