import { randomUUID } from 'node:crypto';
import { SIGNATURE_HEADER, signWebhook } from './signature.ts';
import type { Delivery, StateStore } from './state.ts';

export interface DeliveryOptions {
  /** Attempts per notification, first one included. */
  maxAttempts: number;
  /** Delay before the first retry; doubles after each failure. */
  baseDelayMs: number;
  /** Upper bound of one backoff delay. */
  maxDelayMs: number;
  /** Time allowed for the receiver to answer one attempt. */
  timeoutMs: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  maxAttempts: 8,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  timeoutMs: 5_000,
};

/** How many notifications may be in flight at once, and how many finished ones we keep for the admin page. */
const MAX_IN_FLIGHT = 4;
const KEEP_FINISHED = 500;
const MAX_ERROR_LENGTH = 200;

/**
 * Delivers webhook notifications at least once. Each notification is persisted before the first
 * attempt; failed attempts are retried with exponential backoff up to `maxAttempts`, and pending
 * ones are resumed after a restart. Receivers must therefore be idempotent (the casino credits
 * once per endToEndId).
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: StateStore,
    /** HMAC key of the optional signature; null sends callbacks unsigned, as the standard does. */
    private readonly secret: string | null,
    private readonly options: DeliveryOptions,
    private readonly now: () => number,
    private readonly onAttempt?: (url: string, body: string, status: number | null) => void,
  ) {}

  /** Queues a notification; the caller saves the state (this only mutates it) and then calls `kick`. */
  enqueue(kind: Delivery['kind'], url: string, body: unknown): Delivery {
    const delivery: Delivery = {
      id: randomUUID(),
      kind,
      url,
      body: JSON.stringify(body),
      attempts: 0,
      nextAttemptAt: this.now(),
      status: 'pending',
      createdAt: new Date(this.now()).toISOString(),
    };
    const deliveries = this.store.state.deliveries;
    deliveries.push(delivery);
    this.prune();
    return delivery;
  }

  /** Starts due attempts now and schedules the next wake-up. */
  kick(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = this.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const delivery of this.store.state.deliveries) {
      if (delivery.status !== 'pending' || this.inFlight.has(delivery.id)) continue;
      if (delivery.nextAttemptAt <= now && this.inFlight.size < MAX_IN_FLIGHT) {
        this.start(delivery);
      } else {
        earliest = Math.min(earliest, Math.max(delivery.nextAttemptAt, now + 10));
      }
    }
    if (Number.isFinite(earliest)) {
      this.timer = setTimeout(() => this.kick(), Math.min(earliest - now, this.options.maxDelayMs));
      this.timer.unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const controller of this.inFlight.values()) controller.abort();
    await Promise.allSettled([...this.running]);
  }

  private start(delivery: Delivery): void {
    const controller = new AbortController();
    this.inFlight.set(delivery.id, controller);
    // A failed save is retried by the next attempt's save; it must not become an unhandled rejection.
    const run = this.attempt(delivery, controller)
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.running.delete(run);
        this.kick();
      });
    this.running.add(run);
  }

  private async attempt(delivery: Delivery, controller: AbortController): Promise<void> {
    const timeout = setTimeout(() => controller.abort(), this.options.timeoutMs);
    let error: string | null = null;
    let status: number | null = null;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.secret !== null
            ? { [SIGNATURE_HEADER]: signWebhook(this.secret, delivery.body, Math.floor(this.now() / 1000)) }
            : {}),
        },
        body: delivery.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      await response.body?.cancel();
      status = response.status;
      if (response.status < 200 || response.status >= 300) error = `HTTP ${response.status}`;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    } finally {
      clearTimeout(timeout);
    }
    this.onAttempt?.(delivery.url, delivery.body, status);
    // Shutting down is not the receiver's fault: leave the attempt uncounted for the next start.
    if (this.closed) return;
    delivery.attempts += 1;
    if (error === null) {
      delivery.status = 'delivered';
      delete delivery.lastError;
    } else {
      delivery.lastError = error.slice(0, MAX_ERROR_LENGTH);
      if (delivery.attempts >= this.options.maxAttempts) {
        delivery.status = 'failed';
      } else {
        const backoff = this.options.baseDelayMs * 2 ** (delivery.attempts - 1);
        delivery.nextAttemptAt = this.now() + Math.min(backoff, this.options.maxDelayMs);
      }
    }
    await this.store.save();
  }

  private prune(): void {
    const deliveries = this.store.state.deliveries;
    let finished = deliveries.filter((d) => d.status !== 'pending').length;
    for (let i = 0; i < deliveries.length && finished > KEEP_FINISHED; ) {
      if (deliveries[i]!.status !== 'pending') {
        deliveries.splice(i, 1);
        finished -= 1;
      } else {
        i += 1;
      }
    }
  }
}
