export { type Aggregator, type AggregatorOptions, createAggregator } from './aggregator.ts';
export { signBody, verifyBody } from './signature.ts';
