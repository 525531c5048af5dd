import { mkdirSync, readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** Record status of an immediate charge, exactly the API Pix enum. */
export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
export type PayoutStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'TELEFONE' | 'EVP';
export type PayoutMode = 'manual' | 'succeed' | 'fail';

export type Person = { cpf: string; nome: string } | { cnpj: string; nome: string };

export interface Devolucao {
  id: string;
  rtrId: string;
  valor: string;
  natureza: 'ORIGINAL';
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo?: string;
}

export interface PixReceived {
  endToEndId: string;
  txid: string;
  valor: string;
  horario: string;
  infoPagador?: string;
  pagador: { cpf: string; nome: string };
  devolucoes?: Devolucao[];
}

export interface Charge {
  txid: string;
  revisao: number;
  status: CobStatus;
  calendario: { criacao: string; expiracao: number };
  valor: { original: string; modalidadeAlteracao: 0 };
  chave: string;
  devedor?: Person;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
  loc: { id: number; location: string; tipoCob: 'cob'; criacao: string };
  pixCopiaECola: string;
  pix: PixReceived[];
  /** When the status left ATIVA without a payment (expiry or removal). */
  encerramento?: string;
}

export interface Payout {
  id: string;
  status: PayoutStatus;
  valor: string;
  chave: string;
  tipoChave: PixKeyType;
  favorecido: Person;
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  endToEndId?: string;
  motivo?: string;
}

export interface Webhook {
  chave: string;
  webhookUrl: string;
  criacao: string;
}

export interface Delivery {
  id: string;
  kind: 'pix' | 'payout';
  url: string;
  /** The exact bytes that are signed and sent; kept so a retry after a restart is identical. */
  body: string;
  attempts: number;
  nextAttemptAt: number;
  status: 'pending' | 'delivered' | 'failed';
  lastError?: string;
  createdAt: string;
}

export interface SandboxState {
  version: 1;
  nextLocId: number;
  charges: Record<string, Charge>;
  payouts: Record<string, Payout>;
  webhooks: Record<string, Webhook>;
  deliveries: Delivery[];
  settings: { payoutMode: PayoutMode };
}

const FILE_NAME = 'state.json';

export function emptyState(payoutMode: PayoutMode): SandboxState {
  return {
    version: 1,
    nextLocId: 1,
    charges: {},
    payouts: {},
    webhooks: {},
    deliveries: [],
    settings: { payoutMode },
  };
}

/**
 * The sandbox's whole state lives in one JSON file. Every change is written to a temporary file,
 * flushed to disk and renamed over the old one, so a crash leaves either the old or the new state,
 * never half of one. Writes are serialised; each one writes the state as it is when it runs, so a
 * burst of changes costs at most one extra write.
 */
export class StateStore {
  readonly state: SandboxState;
  private readonly path: string;
  private chain: Promise<void> = Promise.resolve();

  constructor(dataDir: string, payoutMode: PayoutMode) {
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, FILE_NAME);
    this.state = StateStore.read(this.path) ?? emptyState(payoutMode);
  }

  private static read(path: string): SandboxState | null {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // A state file we cannot understand is a lost payment waiting to happen: refuse to start
    // rather than silently begin from empty.
    const parsed = JSON.parse(text) as SandboxState;
    if (parsed.version !== 1 || typeof parsed.charges !== 'object' || !Array.isArray(parsed.deliveries)) {
      throw new Error(`unrecognised PSP sandbox state file: ${path}`);
    }
    return parsed;
  }

  save(): Promise<void> {
    const next = this.chain.then(() => this.write());
    // A failed write must not wedge every later save; the caller of this save sees the error.
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every save requested so far has finished. */
  flushed(): Promise<void> {
    return this.chain;
  }

  private async write(): Promise<void> {
    const temporary = `${this.path}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(this.state));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.path);
  }
}
