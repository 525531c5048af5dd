import { isValidCpf, parseMinor } from '@sorte/contract';
import { z } from 'zod';

/**
 * What we read from an API Pix PSP, parsed into our types. Optional in the standard means optional
 * here (`location`, `pixCopiaECola`, a Pix's `txid`, `devolucoes`), and fields outside the standard
 * (a PSP's own payer extension) are read leniently: an odd one is dropped, never fatal.
 */

export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
export const END_TO_END_ID = /^[a-zA-Z0-9]{32}$/;
export const REFUND_ID = /^[a-zA-Z0-9]{1,35}$/;

export const valor = z
  .string()
  .regex(/^\d{1,10}\.\d{2}$/)
  .transform((text) => parseMinor(text) ?? -1n)
  .refine((minor) => minor >= 0n);
export const instant = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(Date.parse(text)))
  .transform((text) => new Date(text));

export type RefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export interface Refund {
  id: string;
  returnId: string;
  amountMinor: bigint;
  status: RefundStatus;
  requestedAt: Date | null;
  settledAt: Date | null;
  reason: string | null;
}

/** One Pix received, as the PSP reports it (GET /pix, GET /cob's pix[], the callback). */
export interface PixPayment {
  endToEndId: string;
  /** Absent for a Pix that paid no charge of ours (a transfer straight to the key). */
  txid: string | null;
  amountMinor: bigint;
  paidAt: Date;
  /** Only from a PSP that adds the payer's document (outside the standard); null otherwise. */
  payer: { cpf: string; name: string | null } | null;
  payerMessage: string | null;
  refunds: Refund[];
}

export const ZRefund = z.object({
  id: z.string().regex(REFUND_ID),
  rtrId: z.string().regex(END_TO_END_ID),
  valor,
  status: z.enum(['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO']),
  horario: z.object({ solicitacao: instant.optional(), liquidacao: instant.optional() }).optional(),
  motivo: z.string().max(140).optional(),
});

export function toRefund(refund: z.infer<typeof ZRefund>): Refund {
  return {
    id: refund.id,
    returnId: refund.rtrId,
    amountMinor: refund.valor,
    status: refund.status,
    requestedAt: refund.horario?.solicitacao ?? null,
    settledAt: refund.horario?.liquidacao ?? null,
    reason: refund.motivo ?? null,
  };
}

const ZPix = z.object({
  endToEndId: z.string().regex(END_TO_END_ID),
  txid: z.string().regex(REFUND_ID).optional(),
  valor,
  horario: instant,
  infoPagador: z.string().max(140).optional(),
  // The standard's schema says array; its own webhook example sends one object. Accept both.
  devolucoes: z
    .union([ZRefund, z.array(ZRefund).max(200)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .optional(),
});

/** A PSP's payer extension, when it has one in the shape `{ cpf, nome }`; anything else is ignored. */
function payerOf(raw: unknown): PixPayment['payer'] {
  if (typeof raw !== 'object' || raw === null) return null;
  const { cpf, nome } = raw as { cpf?: unknown; nome?: unknown };
  if (typeof cpf !== 'string' || !isValidCpf(cpf)) return null;
  return { cpf, name: typeof nome === 'string' ? nome.slice(0, 200) : null };
}

/** One Pix item, or null when it is not the standard's shape (the caller logs and skips it). */
export function parsePix(raw: unknown): PixPayment | null {
  const parsed = ZPix.safeParse(raw);
  if (!parsed.success || parsed.data.valor <= 0n) return null;
  const pix = parsed.data;
  return {
    endToEndId: pix.endToEndId,
    txid: pix.txid ?? null,
    amountMinor: pix.valor,
    paidAt: pix.horario,
    payer: payerOf((raw as { pagador?: unknown }).pagador),
    payerMessage: pix.infoPagador ?? null,
    refunds: (pix.devolucoes ?? []).map(toRefund),
  };
}

/** Each item on its own: one odd item never rejects the others. */
export function parsePixList(raw: unknown): { items: PixPayment[]; skipped: number } {
  const list = Array.isArray(raw) ? raw : [];
  const items: PixPayment[] = [];
  for (const item of list) {
    const pix = parsePix(item);
    if (pix) items.push(pix);
  }
  return { items, skipped: list.length - items.length };
}

export const ZCob = z.object({
  txid: z.string().regex(TXID_PATTERN),
  revisao: z.number().int().min(0),
  status: z.enum(['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']),
  calendario: z.object({ criacao: instant, expiracao: z.number().int().min(1) }),
  valor: z.object({ original: valor }),
  chave: z.string().max(77),
  location: z.string().max(77).optional(),
  loc: z.object({ location: z.string().max(77).optional() }).optional(),
  pixCopiaECola: z.string().max(512).optional(),
  pix: z.array(z.unknown()).max(1000).optional(),
});

export const ZPixPage = z.object({
  parametros: z.object({
    paginacao: z.object({
      paginaAtual: z.number().int().min(0),
      quantidadeDePaginas: z.number().int().min(0),
    }),
  }),
  pix: z.array(z.unknown()).max(1000).optional(),
});

export const ZToken = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z
    .number()
    .int()
    .min(1)
    .max(86_400 * 30),
});

export const ZProblem = z.object({
  title: z.string().max(500).optional(),
  detail: z.string().max(2000).optional(),
  violacoes: z
    .array(z.object({ razao: z.string().optional(), propriedade: z.string().optional() }))
    .max(50)
    .optional(),
});
