export {};
export * from '../modules/wallet/wallet.schema.ts';
