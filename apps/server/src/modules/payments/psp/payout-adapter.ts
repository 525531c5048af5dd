import { z } from 'zod';
import { type Party, type PixKeyType, type PspClient, PspError, party, toValor } from './psp.client.ts';
import { END_TO_END_ID, instant, TXID_PATTERN, valor } from './psp.schemas.ts';

/**
 * Sending a Pix is not part of the API Pix standard: every PSP has its own endpoint. A payout
 * adapter speaks one PSP's, over the same authenticated (mTLS + OAuth) client, and classifies every
 * answer so the withdrawal flow never mistakes "we cannot tell" for "not sent":
 *
 * - `accepted`: the PSP has the payout; its status says whether it is done, failed or in progress;
 * - `refused`: the PSP definitely did not take it (a 4xx to the send: invalid, unknown endpoint);
 * - `not_found`: asked by id, the PSP has no such payout;
 * - `unknown`: network, timeout, 5xx, a conflict or an answer we cannot read: ask again by id.
 */
export type PayoutStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';

export interface CreatePayoutInput {
  /** From `createPayoutId()`; the idempotency key of the payout at the PSP. */
  id: string;
  amountMinor: bigint;
  pixKey: string;
  pixKeyType: PixKeyType;
  recipient: Party;
  description?: string;
}

export type PayoutAnswer =
  | {
      kind: 'accepted';
      status: PayoutStatus;
      settledAt: Date | null;
      endToEndId: string | null;
      failureReason: string | null;
    }
  | { kind: 'refused'; reason: string }
  | { kind: 'not_found' }
  | { kind: 'unknown'; reason: string };

export interface PayoutAdapter {
  readonly name: PayoutAdapterName;
  /** Token scopes this PSP's send and query endpoints need, on top of the standard's. */
  readonly scopes: readonly string[];
  send(input: CreatePayoutInput): Promise<PayoutAnswer>;
  get(id: string): Promise<PayoutAnswer>;
}

export const PAYOUT_ADAPTERS = ['sandbox', 'efi'] as const;
export type PayoutAdapterName = (typeof PAYOUT_ADAPTERS)[number];
/** Scopes each adapter's endpoints need beyond the standard's (Efí names its own). */
export const PAYOUT_SCOPES: Record<PayoutAdapterName, readonly string[]> = {
  sandbox: [],
  efi: ['pix.send', 'gn.pix.send.read'],
};

function classifySend(error: unknown): PayoutAnswer {
  if (!(error instanceof PspError)) throw error;
  // 400/422: invalid; 404: no such endpoint or key. The PSP took nothing.
  if (error.code === 'PSP_REJECTED' || error.code === 'PSP_NOT_FOUND')
    return { kind: 'refused', reason: `psp_refused: ${error.message}`.slice(0, 200) };
  // A 409 says the id exists: perhaps our own earlier attempt. Only a query tells what it became.
  return { kind: 'unknown', reason: error.message };
}

function classifyGet(error: unknown): PayoutAnswer {
  if (!(error instanceof PspError)) throw error;
  if (error.code === 'PSP_NOT_FOUND') return { kind: 'not_found' };
  return { kind: 'unknown', reason: error.message };
}

function accepted(
  parsed: { status: PayoutStatus; liquidacao?: Date | undefined; e2e?: string | undefined; motivo?: string },
  final: boolean,
): PayoutAnswer {
  return {
    kind: 'accepted',
    status: parsed.status,
    settledAt: final ? (parsed.liquidacao ?? null) : null,
    endToEndId: parsed.e2e ?? null,
    failureReason: parsed.motivo ?? null,
  };
}

const ZSandboxPayout = z.object({
  id: z.string().regex(TXID_PATTERN),
  status: z.enum(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO']),
  valor,
  horario: z.object({ solicitacao: instant, liquidacao: instant.optional() }),
  endToEndId: z.string().regex(END_TO_END_ID).optional(),
  motivo: z.string().max(140).optional(),
});

function readSandbox(body: unknown): PayoutAnswer {
  const parsed = ZSandboxPayout.safeParse(body);
  if (!parsed.success) return { kind: 'unknown', reason: 'payout answer of an unknown shape' };
  const p = parsed.data;
  return accepted(
    {
      status: p.status,
      liquidacao: p.horario.liquidacao,
      e2e: p.endToEndId,
      ...(p.motivo ? { motivo: p.motivo } : {}),
    },
    p.status !== 'EM_PROCESSAMENTO',
  );
}

/** Our sandbox's payout API: `PUT/GET /payouts/{id}` under the API base (apps/psp-sandbox/README.md). */
export function sandboxPayouts(client: PspClient): PayoutAdapter {
  return {
    name: 'sandbox',
    scopes: PAYOUT_SCOPES.sandbox,
    async send(input) {
      const body = {
        valor: toValor(input.amountMinor),
        chave: input.pixKey,
        tipoChave: input.pixKeyType,
        favorecido: party(input.recipient),
        ...(input.description ? { descricao: input.description.slice(0, 140) } : {}),
      };
      return client.request('PUT', `/payouts/${input.id}`, body).then(readSandbox, classifySend);
    },
    async get(id) {
      return client.request('GET', `/payouts/${id}`).then(readSandbox, classifyGet);
    },
  };
}

const ZEfiSent = z.object({
  idEnvio: z.string().max(35),
  status: z.enum(['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO']),
  valor,
  e2eId: z.string().max(64).optional(),
  endToEndId: z.string().max(64).optional(),
  horario: z.object({ solicitacao: instant.optional(), liquidacao: instant.optional() }).optional(),
});

function readEfi(body: unknown): PayoutAnswer {
  const parsed = ZEfiSent.safeParse(body);
  if (!parsed.success) return { kind: 'unknown', reason: 'Efí answer of an unknown shape' };
  const p = parsed.data;
  return accepted(
    { status: p.status, liquidacao: p.horario?.liquidacao, e2e: p.endToEndId ?? p.e2eId },
    p.status !== 'EM_PROCESSAMENTO',
  );
}

/**
 * Efí Bank ("Envio de Pix", API Pix de Efí): `PUT /v3/gn/pix/{idEnvio}` with
 * `{ valor, pagador: { chave }, favorecido: { chave, cpf|cnpj } }` (the document makes Efí refuse a
 * key that is not that CPF's or CNPJ's), and `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`; both on
 * the API Pix host, scopes `pix.send` and `gn.pix.send.read`. Statuses are the ones above.
 */
export function efiPayouts(client: PspClient, ourPixKey: string): PayoutAdapter {
  return {
    name: 'efi',
    scopes: PAYOUT_SCOPES.efi,
    async send(input) {
      const document =
        'cpf' in input.recipient ? { cpf: input.recipient.cpf } : { cnpj: input.recipient.cnpj };
      const body = {
        valor: toValor(input.amountMinor),
        pagador: {
          chave: ourPixKey,
          ...(input.description ? { infoPagador: input.description.slice(0, 140) } : {}),
        },
        favorecido: { chave: input.pixKey, ...document },
      };
      return client
        .request('PUT', `/v3/gn/pix/${input.id}`, body, { fromOrigin: true })
        .then(readEfi, classifySend);
    },
    async get(id) {
      return client
        .request('GET', `/v2/gn/pix/enviados/id-envio/${id}`, undefined, { fromOrigin: true })
        .then(readEfi, classifyGet);
    },
  };
}

export function payoutAdapter(name: PayoutAdapterName, client: PspClient, ourPixKey: string) {
  return name === 'efi' ? efiPayouts(client, ourPixKey) : sandboxPayouts(client);
}
