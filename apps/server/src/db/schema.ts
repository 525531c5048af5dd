/**
 * Every table the migrations create, declared once in the Drizzle schema of the module that owns it
 * (schema.int.test.ts holds this list to the migrated database).
 */
export * from '../jobs/jobs.schema.ts';
export * from '../modules/admin/admin.schema.ts';
export * from '../modules/agency/agency.schema.ts';
export * from '../modules/aml/aml.schema.ts';
export * from '../modules/auth/auth.schema.ts';
export * from '../modules/backoffice-reports/backoffice-reports.schema.ts';
export * from '../modules/bank-cards/bank-cards.schema.ts';
export * from '../modules/chat/chat.schema.ts';
export * from '../modules/crash/crash.schema.ts';
export * from '../modules/deposits/deposits.schema.ts';
export * from '../modules/games/games.schema.ts';
export * from '../modules/information/information.schema.ts';
export * from '../modules/kyc/kyc.schema.ts';
export * from '../modules/mail/mail.schema.ts';
export * from '../modules/members/members.schema.ts';
export * from '../modules/promotions/promotions.schema.ts';
export * from '../modules/providers/providers.schema.ts';
export * from '../modules/referrals/referrals.schema.ts';
export * from '../modules/regulator/regulator.schema.ts';
export * from '../modules/responsible-gaming/rg.schema.ts';
export * from '../modules/security/security.schema.ts';
export * from '../modules/sessions/sessions.schema.ts';
export * from '../modules/sites/sites.schema.ts';
export * from '../modules/sports/sports.schema.ts';
export * from '../modules/terms/terms.schema.ts';
export * from '../modules/wallet/bonus-grants.schema.ts';
export * from '../modules/wallet/wallet.schema.ts';
export * from '../modules/withdrawals/withdrawals.schema.ts';
export * from './migrations.schema.ts';
