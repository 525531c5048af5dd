import pg from 'pg';
import type { Db, Executor } from '../../db/client.ts';
import { newClient } from '../../db/primary.ts';
import { notifyText } from './realtime.repo.ts';

/**
 * Cross-process messages that travel with a transaction: `notifyChannel` runs `pg_notify` in the
 * caller's executor, so PostgreSQL (and PGlite) deliver it only when that transaction commits and
 * never when it rolls back. A notification row and its live push therefore cannot disagree.
 * `listenChannel` receives them in every process: over a dedicated LISTEN connection on PostgreSQL,
 * or through PGlite's own listener when the database is embedded (one process).
 */

/** PostgreSQL's limit on a NOTIFY payload is 8000 bytes; ours stay well below. */
export const MAX_PAYLOAD_BYTES = 7000;

export async function notifyChannel(executor: Executor, channel: string, payload: unknown): Promise<void> {
  await notifyText(executor, channel, channelText(channel, payload));
}

/** A payload as `pg_notify` sends it on `channel` (a statement that notifies many sends these). */
export function channelText(channel: string, payload: unknown): string {
  const text = JSON.stringify(payload);
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) throw new Error(`${channel} payload too large`);
  return text;
}

interface EmbeddedClient {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

function embeddedClient(db: Db): EmbeddedClient | null {
  const client = (db as unknown as { $client?: { listen?: unknown } }).$client;
  return client && typeof client.listen === 'function' ? (client as unknown as EmbeddedClient) : null;
}

/** How long to wait before listening again when the database refused (e.g. down at boot). */
const RETRY_MS = 5_000;
/** How soon a LISTEN connection that was up and went is opened again. */
const LOST_RETRY_MS = 1_000;

/**
 * Calls `onPayload` with each JSON payload sent on `channel` by any process. Returns the function
 * that stops listening, or null when the database offers no way to listen. A database that cannot
 * be listened to yet does not stop the server from starting (it answers, and /readyz says
 * not-ready, meanwhile): the failure goes to `onError` and listening is tried again every 5 s.
 */
export async function listenChannel(
  db: Db,
  listenUrl: string | undefined,
  channel: string,
  onPayload: (payload: unknown) => void,
  onError: (error: unknown) => void,
  /** Called each time listening starts: the first time, and again after a lost connection. */
  onListening?: () => void,
): Promise<(() => Promise<void>) | null> {
  let stopListening: (() => Promise<void>) | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const lost = () => {
    // The LISTEN connection went (the database restarted or failed over): listen again, on the
    // primary of that moment.
    stopListening = null;
    if (stopped) return;
    retry = setTimeout(() => void attempt(), LOST_RETRY_MS);
    retry.unref();
  };
  const attempt = async (): Promise<boolean> => {
    try {
      const stop = await listenOnce(db, listenUrl, channel, onPayload, onError, lost);
      if (stop === null) return false;
      if (stopped) await stop();
      else {
        stopListening = stop;
        onListening?.();
      }
    } catch (error) {
      onError(error);
      if (!stopped) {
        retry = setTimeout(() => void attempt(), RETRY_MS);
        retry.unref();
      }
    }
    return true;
  };
  if (!(await attempt())) return null;
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await stopListening?.();
  };
}

async function listenOnce(
  db: Db,
  listenUrl: string | undefined,
  channel: string,
  onPayload: (payload: unknown) => void,
  onError: (error: unknown) => void,
  onLost: () => void,
): Promise<(() => Promise<void>) | null> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  const deliver = (text: string | undefined) => {
    if (!text) return;
    try {
      onPayload(JSON.parse(text));
    } catch (error) {
      onError(error);
    }
  };
  if (listenUrl) {
    const client = newClient(listenUrl);
    client.on('error', onError);
    client.on('notification', (message) => {
      if (message.channel === channel) deliver(message.payload);
    });
    let listening = false;
    let ending = false;
    client.on('end', () => {
      if (listening && !ending) onLost();
    });
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    listening = true;
    return async () => {
      ending = true;
      await client.end().catch(() => undefined);
    };
  }
  const embedded = embeddedClient(db);
  if (embedded) {
    const unlisten = await embedded.listen(channel, deliver);
    return async () => {
      await unlisten().catch(() => undefined);
    };
  }
  const pool = poolClient(db);
  if (!pool) return null;
  // No URL given: one connection of the pool is kept for LISTEN (it hears the same database).
  const client = await pool.connect();
  client.on('error', onError);
  client.on('notification', (message) => {
    if (message.channel === channel) deliver(message.payload);
  });
  await client.query(`LISTEN ${channel}`);
  let ending = false;
  client.on('end', () => {
    if (!ending) onLost();
  });
  return async () => {
    ending = true;
    await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
    client.release(true);
  };
}

function poolClient(db: Db): pg.Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}
