import { randomBytes, randomUUID } from 'node:crypto';
import { buildDynamicBrCode } from '@sorte/pix-br-code';
import type { WebhookDeliverer } from './delivery.ts';
import { formatValor, parseValor } from './money.ts';
import type {
  Charge,
  Devolucao,
  Payout,
  PayoutMode,
  Person,
  PixKeyType,
  PixReceived,
  StateStore,
} from './state.ts';

/** Bounds of what the sandbox keeps; the oldest finished records are dropped first. */
export const MAX_CHARGES = 10_000;
export const MAX_PAYOUTS = 10_000;
/** The sandbox's participant code (ISPB) inside end-to-end ids. */
const SANDBOX_ISPB = '99999999';
const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export class SandboxError extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid' | 'conflict' | 'full',
    message: string,
  ) {
    super(message);
  }
}

export interface ChargeInput {
  expiracao: number;
  original: string;
  chave: string;
  devedor?: Person;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
}

export interface PayoutInput {
  valor: string;
  chave: string;
  tipoChave: PixKeyType;
  favorecido: Person;
  descricao?: string;
}

export interface PspOptions {
  merchantName: string;
  merchantCity: string;
  /** The receiver's DICT keys: charges must use one, webhooks are registered on them. */
  pixKeys: readonly string[];
  /** Delay before an automatic payout decision, so the "in processing" state is observable. */
  payoutDecisionDelayMs: number;
  /**
   * Add the payer (`pagador: { cpf, nome }`) to every Pix shown: an extension some PSPs have and
   * the standard's Pix schema does not. Off in strict mode, where only `GET /pix?cpf=` tells.
   */
  payerExtension: boolean;
}

export interface PixFilter {
  inicio: number;
  fim: number;
  txid?: string;
  cpf?: string;
  cnpj?: string;
}

function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}

function compactUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\D/g, '').slice(0, 12);
}

/** E + ISPB (8) + yyyyMMddHHmm (12) + 11 alphanumerics = 32 characters, as the SPI issues them. */
export function newEndToEndId(nowMs: number): string {
  return `E${SANDBOX_ISPB}${compactUtc(nowMs)}${randomAlphanumeric(11)}`;
}

/** The return identification of a refund (pacs.004): same layout as an end-to-end id, with D. */
function newReturnId(nowMs: number): string {
  return `D${SANDBOX_ISPB}${compactUtc(nowMs)}${randomAlphanumeric(11)}`;
}

/** Refunds a Pix may have; the API Pix has no number, the sandbox bounds it. */
const MAX_REFUNDS_PER_PIX = 20;

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The domain of the sandbox PSP: charges, payments, payouts and the notifications they cause. */
export class Psp {
  private readonly decisionTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: StateStore,
    private readonly deliverer: WebhookDeliverer,
    private readonly options: PspOptions,
    private readonly now: () => number,
    private readonly baseUrl: () => string,
  ) {}

  get state() {
    return this.store.state;
  }

  get merchant() {
    return { name: this.options.merchantName, city: this.options.merchantCity };
  }

  get pixKeys() {
    return this.options.pixKeys;
  }

  /** Marks an expired ATIVA charge as removed by the PSP; true when that changed it. */
  private settleExpiry(charge: Charge): boolean {
    if (charge.status !== 'ATIVA') return false;
    const expiresAt = Date.parse(charge.calendario.criacao) + charge.calendario.expiracao * 1000;
    if (this.now() < expiresAt) return false;
    charge.status = 'REMOVIDA_PELO_PSP';
    charge.encerramento = new Date(expiresAt).toISOString();
    return true;
  }

  async getCharge(txid: string): Promise<Charge | null> {
    const charge = this.state.charges[txid];
    if (!charge) return null;
    if (this.settleExpiry(charge)) await this.store.save();
    return charge;
  }

  listCharges(limit: number): Charge[] {
    const charges = Object.values(this.state.charges);
    for (const charge of charges) this.settleExpiry(charge);
    return charges.sort((a, b) => b.loc.id - a.loc.id).slice(0, limit);
  }

  findChargeByLocation(locationId: string): Charge | null {
    for (const charge of Object.values(this.state.charges)) {
      if (charge.loc.location.endsWith(`/qr/v2/${locationId}`)) return charge;
    }
    return null;
  }

  /**
   * PUT /cob/{txid}: creates the charge. As the standard says, a txid already used is an invalid
   * request (400), whatever the body: a client that lost the answer reads `GET /cob/{txid}`.
   */
  async putCharge(txid: string, input: ChargeInput): Promise<{ charge: Charge; created: boolean }> {
    if (!this.options.pixKeys.includes(input.chave)) {
      throw new SandboxError('invalid', 'cob.chave: the key does not belong to this receiver');
    }
    if (this.state.charges[txid]) throw new SandboxError('invalid', 'txid: already used by another charge');
    this.makeRoom();
    const nowIso = new Date(this.now()).toISOString();
    const locId = this.state.nextLocId++;
    const location = `${this.baseUrl().replace(/^https?:\/\//, '')}/qr/v2/${randomUUID().replace(/-/g, '')}`;
    const charge: Charge = {
      txid,
      revisao: 0,
      status: 'ATIVA',
      calendario: { criacao: nowIso, expiracao: input.expiracao },
      valor: { original: input.original, modalidadeAlteracao: 0 },
      chave: input.chave,
      loc: { id: locId, location, tipoCob: 'cob', criacao: nowIso },
      pixCopiaECola: buildDynamicBrCode({
        location,
        merchantName: this.options.merchantName,
        merchantCity: this.options.merchantCity,
      }),
      pix: [],
    };
    this.apply(charge, input);
    this.state.charges[txid] = charge;
    await this.store.save();
    return { charge, created: true };
  }

  /** PATCH with status REMOVIDA_PELO_USUARIO_RECEBEDOR: the receiver withdraws an unpaid charge. */
  async removeCharge(txid: string): Promise<Charge> {
    const charge = await this.getCharge(txid);
    if (!charge) throw new SandboxError('not_found', 'charge not found');
    if (charge.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') return charge;
    if (charge.status !== 'ATIVA') throw new SandboxError('invalid', 'only an ATIVA charge can be removed');
    charge.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
    charge.revisao += 1;
    charge.encerramento = new Date(this.now()).toISOString();
    await this.store.save();
    return charge;
  }

  private apply(charge: Charge, input: ChargeInput): void {
    charge.calendario.expiracao = input.expiracao;
    charge.valor.original = input.original;
    charge.chave = input.chave;
    if (input.devedor) charge.devedor = input.devedor;
    else delete charge.devedor;
    if (input.solicitacaoPagador !== undefined) charge.solicitacaoPagador = input.solicitacaoPagador;
    else delete charge.solicitacaoPagador;
    if (input.infoAdicionais) charge.infoAdicionais = input.infoAdicionais;
    else delete charge.infoAdicionais;
  }

  private makeRoom(): void {
    const charges = Object.values(this.state.charges);
    if (charges.length < MAX_CHARGES) return;
    for (const charge of charges) this.settleExpiry(charge);
    const finished = charges.filter((c) => c.status !== 'ATIVA').sort((a, b) => a.loc.id - b.loc.id);
    const oldest = finished[0];
    if (!oldest) throw new SandboxError('full', 'too many active charges');
    delete this.state.charges[oldest.txid];
  }

  /** The payer's bank pays the charge in full; the receiver's webhook is notified. */
  async pay(txid: string, payer: { cpf: string; nome: string; infoPagador?: string }): Promise<PixReceived> {
    const charge = await this.getCharge(txid);
    if (!charge) throw new SandboxError('not_found', 'charge not found');
    if (charge.status !== 'ATIVA') {
      throw new SandboxError('conflict', `this charge cannot be paid: ${charge.status}`);
    }
    const pix: PixReceived = {
      endToEndId: newEndToEndId(this.now()),
      txid,
      valor: charge.valor.original,
      horario: new Date(this.now()).toISOString(),
      pagador: { cpf: payer.cpf, nome: payer.nome },
    };
    if (payer.infoPagador) pix.infoPagador = payer.infoPagador;
    // Status and payment change together before any await, so two concurrent payers cannot
    // both pay the same single-use charge.
    charge.status = 'CONCLUIDA';
    charge.pix.push(pix);
    const webhook = this.state.webhooks[charge.chave];
    if (webhook)
      this.deliverer.enqueue('pix', joinUrl(webhook.webhookUrl, 'pix'), { pix: [this.pixView(pix, charge)] });
    await this.store.save();
    this.deliverer.kick();
    return pix;
  }

  /** The payer page's "Let it expire": the charge's lifetime ends now. */
  async expireNow(txid: string): Promise<Charge> {
    const charge = await this.getCharge(txid);
    if (!charge) throw new SandboxError('not_found', 'charge not found');
    if (charge.status !== 'ATIVA') return charge;
    const lived = Math.max(0, Math.floor((this.now() - Date.parse(charge.calendario.criacao)) / 1000));
    charge.calendario.expiracao = Math.max(1, lived);
    charge.status = 'REMOVIDA_PELO_PSP';
    charge.encerramento = new Date(this.now()).toISOString();
    await this.store.save();
    return charge;
  }

  /** A Pix as the API shows it: the standard's fields, plus the payer only with the extension on. */
  pixView(pix: PixReceived, charge: Charge) {
    const { pagador, ...standard } = pix;
    return { ...standard, chave: charge.chave, ...(this.options.payerExtension ? { pagador } : {}) };
  }

  /** GET /pix: received Pix in [inicio, fim], optionally of one txid or payer document, oldest first. */
  listPix(filter: PixFilter) {
    const found: { pix: PixReceived; charge: Charge }[] = [];
    for (const charge of Object.values(this.state.charges)) {
      for (const pix of charge.pix) {
        const at = Date.parse(pix.horario);
        if (at < filter.inicio || at > filter.fim) continue;
        if (filter.txid !== undefined && pix.txid !== filter.txid) continue;
        if (filter.cpf !== undefined && pix.pagador.cpf !== filter.cpf) continue;
        if (filter.cnpj !== undefined) continue;
        found.push({ pix, charge });
      }
    }
    return found
      .sort((a, b) => a.pix.horario.localeCompare(b.pix.horario))
      .map(({ pix, charge }) => this.pixView(pix, charge));
  }

  findPix(endToEndId: string): { charge: Charge; pix: PixReceived } | null {
    for (const charge of Object.values(this.state.charges)) {
      const pix = charge.pix.find((p) => p.endToEndId === endToEndId);
      if (pix) return { charge, pix };
    }
    return null;
  }

  /**
   * PUT /pix/{e2eid}/devolucao/{id}: returns money of a received Pix to its payer. The same id
   * with the same body is the original refund; refunds together never exceed the Pix.
   */
  async refund(
    endToEndId: string,
    id: string,
    input: { valor: string; descricao?: string },
  ): Promise<{ devolucao: Devolucao; created: boolean }> {
    const found = this.findPix(endToEndId);
    if (!found) throw new SandboxError('not_found', 'Pix not found');
    const refunds = found.pix.devolucoes ?? [];
    const existing = refunds.find((d) => d.id === id);
    if (existing) {
      if (existing.valor === input.valor && existing.descricao === input.descricao) {
        return { devolucao: existing, created: false };
      }
      throw new SandboxError('invalid', 'this refund id is already used for another request');
    }
    if (refunds.length >= MAX_REFUNDS_PER_PIX)
      throw new SandboxError('invalid', 'too many refunds for this Pix');
    const refunded = refunds
      .filter((d) => d.status !== 'NAO_REALIZADO')
      .reduce((sum, d) => sum + (parseValor(d.valor) ?? 0n), 0n);
    const requested = parseValor(input.valor) ?? 0n;
    const received = parseValor(found.pix.valor) ?? 0n;
    if (requested <= 0n || refunded + requested > received) {
      throw new SandboxError(
        'invalid',
        `refunds would exceed the Pix: ${formatValor(received - refunded)} left`,
      );
    }
    const devolucao: Devolucao = {
      id,
      rtrId: newReturnId(this.now()),
      valor: input.valor,
      natureza: 'ORIGINAL',
      horario: { solicitacao: new Date(this.now()).toISOString() },
      status: 'EM_PROCESSAMENTO',
    };
    if (input.descricao !== undefined) devolucao.descricao = input.descricao;
    found.pix.devolucoes = [...refunds, devolucao];
    await this.store.save();
    this.scheduleRefund(endToEndId, id);
    return { devolucao, created: true };
  }

  /** The SPI settles a refund shortly after it is asked for; the receiver is told through the Pix webhook. */
  private scheduleRefund(endToEndId: string, id: string): void {
    const timer = setTimeout(() => {
      this.decisionTimers.delete(timer);
      this.settleRefund(endToEndId, id).catch(() => undefined);
    }, this.options.payoutDecisionDelayMs);
    timer.unref();
    this.decisionTimers.add(timer);
  }

  private async settleRefund(endToEndId: string, id: string): Promise<void> {
    const found = this.findPix(endToEndId);
    const devolucao = found?.pix.devolucoes?.find((d) => d.id === id);
    if (!found || !devolucao || devolucao.status !== 'EM_PROCESSAMENTO') return;
    devolucao.status = 'DEVOLVIDO';
    devolucao.horario.liquidacao = new Date(this.now()).toISOString();
    const webhook = this.state.webhooks[found.charge.chave];
    if (webhook)
      this.deliverer.enqueue('pix', joinUrl(webhook.webhookUrl, 'pix'), {
        pix: [this.pixView(found.pix, found.charge)],
      });
    await this.store.save();
    this.deliverer.kick();
  }

  async putWebhook(chave: string, webhookUrl: string) {
    if (!this.options.pixKeys.includes(chave)) {
      throw new SandboxError('invalid', 'the key does not belong to this receiver');
    }
    const existing = this.state.webhooks[chave];
    const webhook = { chave, webhookUrl, criacao: existing?.criacao ?? new Date(this.now()).toISOString() };
    this.state.webhooks[chave] = webhook;
    await this.store.save();
    return webhook;
  }

  async deleteWebhook(chave: string): Promise<boolean> {
    if (!this.state.webhooks[chave]) return false;
    delete this.state.webhooks[chave];
    await this.store.save();
    return true;
  }

  /**
   * PUT /payouts/{id}: the same id with the same body returns the original payout (safe retry);
   * with a different body it is a conflict, so one id can never pay out twice.
   */
  async putPayout(id: string, input: PayoutInput): Promise<{ payout: Payout; created: boolean }> {
    const existing = this.state.payouts[id];
    if (existing) {
      const request: PayoutInput = {
        valor: existing.valor,
        chave: existing.chave,
        tipoChave: existing.tipoChave,
        favorecido: existing.favorecido,
      };
      if (existing.descricao !== undefined) request.descricao = existing.descricao;
      if (!sameJson(request, input))
        throw new SandboxError('conflict', 'payout id already used with another body');
      return { payout: existing, created: false };
    }
    const payouts = Object.values(this.state.payouts);
    if (payouts.length >= MAX_PAYOUTS) {
      const oldest = payouts
        .filter((p) => p.status !== 'EM_PROCESSAMENTO')
        .sort((a, b) => a.horario.solicitacao.localeCompare(b.horario.solicitacao))[0];
      if (!oldest) throw new SandboxError('full', 'too many payouts in processing');
      delete this.state.payouts[oldest.id];
    }
    const payout: Payout = {
      id,
      status: 'EM_PROCESSAMENTO',
      valor: input.valor,
      chave: input.chave,
      tipoChave: input.tipoChave,
      favorecido: input.favorecido,
      horario: { solicitacao: new Date(this.now()).toISOString() },
    };
    if (input.descricao !== undefined) payout.descricao = input.descricao;
    this.state.payouts[id] = payout;
    await this.store.save();
    this.scheduleDecision(payout);
    return { payout, created: true };
  }

  listPayouts(limit: number): Payout[] {
    return Object.values(this.state.payouts)
      .sort((a, b) => b.horario.solicitacao.localeCompare(a.horario.solicitacao))
      .slice(0, limit);
  }

  /** Settles a payout in processing and notifies the receiver; settling twice is refused. */
  async decidePayout(id: string, outcome: 'succeed' | 'fail', motivo?: string): Promise<Payout> {
    const payout = this.state.payouts[id];
    if (!payout) throw new SandboxError('not_found', 'payout not found');
    if (payout.status !== 'EM_PROCESSAMENTO')
      throw new SandboxError('conflict', `payout already ${payout.status}`);
    payout.horario.liquidacao = new Date(this.now()).toISOString();
    if (outcome === 'succeed') {
      payout.status = 'REALIZADO';
      payout.endToEndId = newEndToEndId(this.now());
    } else {
      payout.status = 'NAO_REALIZADO';
      payout.motivo = (motivo?.trim() || 'Pagamento recusado pelo PSP do recebedor').slice(0, 140);
    }
    const webhook = this.payoutWebhook();
    if (webhook)
      this.deliverer.enqueue('payout', joinUrl(webhook.webhookUrl, 'payout'), { payouts: [payout] });
    await this.store.save();
    this.deliverer.kick();
    return payout;
  }

  async setPayoutMode(mode: PayoutMode): Promise<void> {
    this.state.settings.payoutMode = mode;
    await this.store.save();
    if (mode !== 'manual')
      for (const payout of Object.values(this.state.payouts)) this.scheduleDecision(payout);
  }

  /** Called at start: payouts (under an automatic mode) and refunds still in processing are settled. */
  resume(): void {
    for (const payout of Object.values(this.state.payouts)) this.scheduleDecision(payout);
    for (const charge of Object.values(this.state.charges)) {
      for (const pix of charge.pix) {
        for (const devolucao of pix.devolucoes ?? []) {
          if (devolucao.status === 'EM_PROCESSAMENTO') this.scheduleRefund(pix.endToEndId, devolucao.id);
        }
      }
    }
  }

  close(): void {
    for (const timer of this.decisionTimers) clearTimeout(timer);
    this.decisionTimers.clear();
  }

  /** Payout notifications go to the webhook of the receiver's first key that has one. */
  private payoutWebhook() {
    for (const key of this.options.pixKeys) {
      const webhook = this.state.webhooks[key];
      if (webhook) return webhook;
    }
    return null;
  }

  private scheduleDecision(payout: Payout): void {
    const mode = this.state.settings.payoutMode;
    if (mode === 'manual' || payout.status !== 'EM_PROCESSAMENTO') return;
    const timer = setTimeout(() => {
      this.decisionTimers.delete(timer);
      if (payout.status !== 'EM_PROCESSAMENTO' || this.state.settings.payoutMode !== mode) return;
      this.decidePayout(payout.id, mode, 'Recusado automaticamente pelo sandbox').catch(() => undefined);
    }, this.options.payoutDecisionDelayMs);
    timer.unref();
    this.decisionTimers.add(timer);
  }
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path}`;
}
