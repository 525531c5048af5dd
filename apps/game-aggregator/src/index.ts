export { type Aggregator, type AggregatorOptions, createAggregator } from './aggregator.ts';
export { slotRtp, TABLE_RTP } from './rtp.ts';
export { signBody, verifyBody } from './signature.ts';
export { WalletClient, type WalletClientOptions, WalletUnreachable } from './wallet-client.ts';
