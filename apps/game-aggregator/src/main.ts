import { createAggregator } from './aggregator.ts';

/**
 * Runs the demo aggregator on its own (the server normally starts it in-process):
 *   AGGREGATOR_SECRET=<32+ chars> AGGREGATOR_WALLET_URL=http://127.0.0.1:3000/api/providers/sorte-demo/wallet \
 *   npm start --workspace @sorte/game-aggregator
 * and point the server at it with AGGREGATOR_BASE_URL and the same AGGREGATOR_SECRET.
 */
const secret = process.env.AGGREGATOR_SECRET ?? '';
const walletUrl = process.env.AGGREGATOR_WALLET_URL ?? '';
if (secret.length < 32 || !/^https?:\/\//.test(walletUrl)) {
  console.error('Set AGGREGATOR_SECRET (at least 32 characters) and AGGREGATOR_WALLET_URL (http(s) URL).');
  process.exit(78);
}
const aggregator = createAggregator({
  secret,
  walletUrl,
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 4020),
  ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  logger: true,
});
const url = await aggregator.listen();
console.log(`demo aggregator at ${url}/ (launch: POST ${url}/api/v1/launch)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void aggregator.close().then(() => process.exit(0)));
}
