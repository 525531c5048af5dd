import { randomUUID } from 'node:crypto';
import {
  AGGREGATOR_SIGNATURE_HEADER,
  type TWalletCall,
  type TWalletResponse,
  ZWalletResponse,
} from '@sorte/contract';
import { signBody } from '@sorte/provider-protocol';

/**
 * The aggregator → operator side of the seamless wallet. Each call is signed over its raw body. A
 * call that gets no usable answer (network failure, timeout, HTTP 5xx, a body that is not a wallet
 * answer) is sent again with the SAME transaction id, so the operator executes it at most once; a
 * definite RS_* answer is final. Each attempt has its own request_uuid (for logs only).
 */

export interface WalletClientOptions {
  /** …/api/providers/<id>/wallet */
  walletUrl: string;
  secret: string;
  /** Attempts per call (first try included). */
  attempts?: number;
  timeoutMs?: number;
  /** Pause before attempt n (n ≥ 2) is backoffMs × (n − 1). */
  backoffMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export class WalletUnreachable extends Error {
  override name = 'WalletUnreachable';
}

export const WALLET_LIMITS = { attempts: 3, timeoutMs: 5_000, backoffMs: 250 } as const;

export class WalletClient {
  private readonly attempts: number;
  private readonly timeoutMs: number;
  private readonly backoffMs: number;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: WalletClientOptions) {
    this.attempts = Math.min(Math.max(options.attempts ?? WALLET_LIMITS.attempts, 1), 10);
    this.timeoutMs = options.timeoutMs ?? WALLET_LIMITS.timeoutMs;
    this.backoffMs = options.backoffMs ?? WALLET_LIMITS.backoffMs;
    this.fetch = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The operator's answer; throws WalletUnreachable when every attempt went unanswered. */
  async call(kind: TWalletCall, body: Record<string, unknown>): Promise<TWalletResponse> {
    let lastError: unknown = null;
    for (let attempt = 1; attempt <= this.attempts; attempt += 1) {
      if (attempt > 1) await this.sleep(this.backoffMs * (attempt - 1));
      const raw = JSON.stringify({ ...body, request_uuid: randomUUID() });
      try {
        const response = await this.fetch(`${this.options.walletUrl.replace(/\/+$/, '')}/${kind}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [AGGREGATOR_SIGNATURE_HEADER]: signBody(this.options.secret, raw),
          },
          body: raw,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (response.status >= 500) {
          lastError = new Error(`HTTP ${response.status}`);
          continue;
        }
        const parsed = ZWalletResponse.safeParse(await response.json());
        if (parsed.success) return parsed.data;
        lastError = parsed.error;
      } catch (error) {
        lastError = error;
      }
    }
    throw new WalletUnreachable(`wallet ${kind} unanswered after ${this.attempts} attempts`, {
      cause: lastError,
    });
  }
}
