export * from '../jobs/jobs.schema.ts';
export * from '../modules/admin/admin.schema.ts';
export * from '../modules/auth/auth.schema.ts';
export * from '../modules/games/games.schema.ts';
export * from '../modules/members/members.schema.ts';
export * from '../modules/providers/providers.schema.ts';
export * from '../modules/sites/sites.schema.ts';
export * from '../modules/wallet/wallet.schema.ts';
