import { randomBytes } from 'node:crypto';
import { createAggregator } from '@sorte/game-aggregator';
import { AggregatorClient } from './aggregator.client.ts';

/**
 * How the server reaches its game aggregator. With AGGREGATOR_BASE_URL and AGGREGATOR_SECRET it
 * talks to that aggregator; with neither it starts the built-in demo aggregator as its own
 * loopback HTTP listener (apps/game-aggregator) with a secret made up for this run, and talks to
 * it over HTTP exactly as it would to a real one. Half a configuration is an error.
 */
export interface AggregatorSettings {
  id: string;
  baseUrl?: string | undefined;
  secret?: string | undefined;
}

export interface AggregatorConnection {
  /** The aggregator's id in our callback paths: /api/providers/<id>/wallet/<call>. */
  id: string;
  /** HMAC key of both directions. */
  secret: string;
  client: AggregatorClient;
  /** The origin game pages come from (allowed in the player site's frame-src). */
  origin: string;
  /** The demo aggregator's URL when it runs in this process, else null. */
  sandboxUrl: string | null;
  close(): Promise<void>;
}

export interface ConnectAggregatorOptions {
  /** Where the aggregator calls our wallet: …/api/providers/<id>/wallet. */
  walletUrl: string;
  /** Port of the demo aggregator; 0 picks a free one. */
  sandboxPort?: number;
  /** Address the demo aggregator listens on (default loopback; the server's HOST in a container). */
  sandboxHost?: string | undefined;
  /** The demo aggregator's URL as browsers reach it (default its loopback URL). */
  sandboxPublicUrl?: string | undefined;
}

export async function connectAggregator(
  settings: AggregatorSettings,
  options: ConnectAggregatorOptions,
): Promise<AggregatorConnection> {
  if (settings.baseUrl && settings.secret) {
    const client = new AggregatorClient(settings.baseUrl, settings.secret);
    return {
      id: settings.id,
      secret: settings.secret,
      client,
      origin: client.origin,
      sandboxUrl: null,
      close: async () => undefined,
    };
  }
  if (settings.baseUrl || settings.secret) {
    throw new Error(
      `Aggregator configuration is incomplete; missing ${settings.baseUrl ? 'AGGREGATOR_SECRET' : 'AGGREGATOR_BASE_URL'} (or set neither to use the demo aggregator)`,
    );
  }
  const secret = randomBytes(32).toString('base64url');
  const sandbox = createAggregator({
    secret,
    walletUrl: options.walletUrl,
    port: options.sandboxPort ?? 0,
    ...(options.sandboxHost ? { host: options.sandboxHost } : {}),
    ...(options.sandboxPublicUrl ? { publicUrl: options.sandboxPublicUrl } : {}),
  });
  const url = await sandbox.listen();
  const client = new AggregatorClient(url, secret);
  return {
    id: settings.id,
    secret,
    client,
    origin: client.origin,
    sandboxUrl: url,
    close: () => sandbox.close(),
  };
}
