import { formatMinor, type TLanguage } from '@sorte/contract';
import type pg from 'pg';
import type { Db } from '../../db/client.ts';
import { newClient } from '../../db/primary.ts';
import { getBalances } from '../wallet/balances.ts';
import { notifyTexts } from './realtime.repo.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pushes balance changes to the member's open WebSockets (all server processes). */
    realtime: RealtimeHub;
  }
}

/** What the hub needs of a socket: send text, and be told apart. */
export interface PushTarget {
  send(data: string): void;
}

/** `{ type: 'balance', ... }`: the member's balances right after a change, as user info shows them. */
export interface BalanceMessage {
  type: 'balance';
  money: string;
  fs_money: string;
  ml_money: string;
  total_money: string;
  hold_money: string;
  /** Why it changed, e.g. 'deposit_paid', 'withdraw_requested', 'withdraw_rejected'. */
  reason: string;
  order_no: string | null;
}

/** Extra messages for a member, pushed after their balance message (see addNoticeSource). */
export type NoticeSource = (siteId: bigint, memberId: bigint) => Promise<Record<string, unknown>[]>;

/** A client message on /ws that another module answers (see RealtimeHub.handle). */
export type ClientMessageHandler = (context: {
  siteId: bigint;
  /** The socket's member once it authenticated, else null (a guest). */
  memberId: bigint | null;
  lang: TLanguage;
  target: PushTarget;
  message: Record<string, unknown>;
}) => Promise<boolean> | boolean;

export const BALANCE_CHANNEL = 'sorte_balance';
/** Sockets per member and in total per process: a limit on everything. */
const MAX_SOCKETS_PER_MEMBER = 8;
const MAX_SOCKETS = 20_000;

export interface Change {
  siteId: string;
  memberId: string;
  reason: string;
  orderNo: string | null;
}

/**
 * Balance pushes. A money flow calls `publishBalance` after its transaction commits. With one
 * process (PGlite) the hub delivers directly; on PostgreSQL it sends NOTIFY and every process's
 * LISTEN connection delivers to the sockets it holds, so a webhook handled by process A reaches a
 * browser connected to process B. The message carries fresh balances read when delivering, so a
 * late or duplicated notification never shows an old figure.
 */
export class RealtimeHub {
  private readonly sockets = new Map<string, Set<PushTarget>>();
  private count = 0;
  private listener: pg.Client | null = null;
  private closed = false;
  private readonly noticeSources: NoticeSource[] = [];
  private readonly handlers = new Map<string, ClientMessageHandler>();
  private readonly disconnectListeners: ((target: PushTarget) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly options: { listenUrl?: string | undefined; onError?: (error: unknown) => void } = {},
  ) {}

  /** Opens the LISTEN connection when a PostgreSQL URL was given (otherwise in-process only). */
  async start(): Promise<void> {
    if (!this.options.listenUrl || this.listener) return;
    const client = newClient(this.options.listenUrl);
    client.on('error', (error) => this.options.onError?.(error));
    client.on('notification', (message) => {
      if (message.channel !== BALANCE_CHANNEL || !message.payload) return;
      try {
        // A batch (an array) from `send`; one change alone from a process of an earlier release.
        const parsed = JSON.parse(message.payload) as Change | Change[];
        for (const change of Array.isArray(parsed) ? parsed : [parsed]) void this.deliver(change);
      } catch (error) {
        this.options.onError?.(error);
      }
    });
    await client.connect();
    await client.query(`LISTEN ${BALANCE_CHANNEL}`);
    this.listener = client;
    // A lost LISTEN connection (the database restarted or failed over) is opened again, on the
    // primary of that moment; meanwhile changes are delivered to this process's sockets only.
    client.on('end', () => {
      if (this.listener !== client) return;
      this.listener = null;
      this.listenAgain();
    });
  }

  private listenAgain(): void {
    if (this.closed) return;
    setTimeout(() => {
      if (this.closed || this.listener) return;
      this.start().catch((error: unknown) => {
        this.options.onError?.(error);
        this.listenAgain();
      });
    }, LISTEN_RETRY_MS).unref();
  }

  /**
   * Adds a source of extra messages delivered after a member's balance message (e.g. VIP level-ups
   * recorded by a bet or a deposit); each source hands out a message once.
   */
  addNoticeSource(source: NoticeSource): void {
    this.noticeSources.push(source);
  }

  /**
   * Lets another module answer a client message type on /ws (e.g. 'chat_join'), from members and
   * guests alike. The handler returns true when the socket may stay open without a member session.
   */
  handle(type: string, handler: ClientMessageHandler): void {
    this.handlers.set(type, handler);
  }

  handlerFor(type: string): ClientMessageHandler | undefined {
    return this.handlers.get(type);
  }

  /** Called by the socket route when a socket closes, so modules drop what they hold for it. */
  onDisconnect(listener: (target: PushTarget) => void): void {
    this.disconnectListeners.push(listener);
  }

  disconnected(target: PushTarget): void {
    for (const listener of this.disconnectListeners) listener(target);
  }

  /** Sends a ready-made message to the member's sockets held by this process (see member-channel.ts). */
  sendToMember(siteId: bigint, memberId: bigint, text: string): void {
    const targets = this.sockets.get(`${siteId}:${memberId}`);
    if (!targets || this.closed) return;
    for (const target of targets) {
      try {
        target.send(text);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }

  /** Registers a socket for a member; false when the limits are reached (the caller closes it). */
  add(siteId: bigint, memberId: bigint, target: PushTarget): boolean {
    const key = `${siteId}:${memberId}`;
    const set = this.sockets.get(key) ?? new Set<PushTarget>();
    if (set.size >= MAX_SOCKETS_PER_MEMBER || this.count >= MAX_SOCKETS) return false;
    set.add(target);
    this.sockets.set(key, set);
    this.count += 1;
    return true;
  }

  remove(siteId: bigint, memberId: bigint, target: PushTarget): void {
    const key = `${siteId}:${memberId}`;
    const set = this.sockets.get(key);
    if (set?.delete(target)) this.count -= 1;
    if (set && set.size === 0) this.sockets.delete(key);
  }

  /**
   * Tells every process that the member's balance changed. Never throws (the money already moved).
   * The changes published in the same turn of the event loop (a group of bets answering together)
   * are sent by one statement; the promise resolves once it was sent.
   */
  async publishBalance(siteId: bigint, memberId: bigint, reason: string, orderNo: string | null = null) {
    const change: Change = { siteId: String(siteId), memberId: String(memberId), reason, orderNo };
    try {
      if (this.listener) {
        this.outgoing.push(change);
        this.sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.send());
        await this.sending;
      } else {
        await this.deliver(change);
      }
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  private outgoing: Change[] = [];
  private sending: Promise<void> | null = null;

  /**
   * The changes waiting, as few NOTIFYs as fit (each payload a JSON array under PostgreSQL's 8,000
   * bytes), in one statement: a group of bets is one notification, not one per member, for the
   * database to queue and for every listening process to receive.
   */
  private async send(): Promise<void> {
    const payloads = batchPayloads(this.outgoing);
    this.outgoing = [];
    this.sending = null;
    await notifyTexts(this.db, BALANCE_CHANNEL, payloads);
  }

  /** The balance message for a member, as pushed. */
  async balanceMessage(siteId: bigint, memberId: bigint, reason: string, orderNo: string | null) {
    const balances = await getBalances(this.db, memberId, { siteId });
    const message: BalanceMessage = {
      type: 'balance',
      money: formatMinor(balances.cashMinor),
      fs_money: formatMinor(balances.bonusMinor),
      ml_money: formatMinor(balances.wageringRequiredMinor),
      total_money: formatMinor(balances.totalMinor),
      hold_money: formatMinor(balances.holdMinor),
      reason,
      order_no: orderNo,
    };
    return message;
  }

  private async deliver(change: Change): Promise<void> {
    const targets = this.sockets.get(`${change.siteId}:${change.memberId}`);
    if (!targets || targets.size === 0 || this.closed) return;
    try {
      const message = await this.balanceMessage(
        BigInt(change.siteId),
        BigInt(change.memberId),
        change.reason,
        change.orderNo,
      );
      const texts = [JSON.stringify(message)];
      for (const source of this.noticeSources) {
        for (const notice of await source(BigInt(change.siteId), BigInt(change.memberId))) {
          texts.push(JSON.stringify(notice));
        }
      }
      for (const target of targets) {
        for (const text of texts) {
          try {
            target.send(text);
          } catch (error) {
            this.options.onError?.(error);
          }
        }
      }
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }
}

/** How soon a lost LISTEN connection is opened again. */
const LISTEN_RETRY_MS = 1_000;

/** Under PostgreSQL's limit of 8,000 bytes for a NOTIFY payload. */
const MAX_PAYLOAD_BYTES = 7_900;

/** The changes as JSON arrays of at most MAX_PAYLOAD_BYTES each, in order. */
export function batchPayloads(changes: readonly Change[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let bytes = 2;
  for (const change of changes) {
    const text = JSON.stringify(change);
    const size = Buffer.byteLength(text) + 1;
    if (batch.length > 0 && bytes + size > MAX_PAYLOAD_BYTES) {
      payloads.push(`[${batch.join(',')}]`);
      batch = [];
      bytes = 2;
    }
    batch.push(text);
    bytes += size;
  }
  if (batch.length > 0) payloads.push(`[${batch.join(',')}]`);
  return payloads;
}
