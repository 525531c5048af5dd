export { signBody, verifyBody } from '@sorte/provider-protocol';
export { type Aggregator, type AggregatorOptions, createAggregator } from './aggregator.ts';
export { slotRtp, TABLE_RTP } from './rtp.ts';
export { WalletClient, type WalletClientOptions, WalletUnreachable } from './wallet-client.ts';
