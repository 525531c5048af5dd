import type { TBankAccountType } from '@sorte/contract';
import { bigint, boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Drizzle view of migrations/0003_bank_cards.sql (the SQL file is the source of truth). */
export const memberBankCards = pgTable('member_bank_cards', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
  siteId: bigint('site_id', { mode: 'bigint' }).notNull(),
  memberId: bigint('member_id', { mode: 'bigint' }).notNull(),
  bankName: text('bank_name').notNull(),
  accountType: text('account_type').$type<TBankAccountType>().notNull(),
  payeeName: text('payee_name').notNull(),
  pixKey: text('pix_key').notNull(),
  cpf: text('cpf'),
  accountNo: text('account_no'),
  isDefault: boolean('is_default').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});
export type TBankCardRow = typeof memberBankCards.$inferSelect;
