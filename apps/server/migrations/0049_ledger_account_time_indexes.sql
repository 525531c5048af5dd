-- A member's side of the ledger by time: (account, created_at, id) instead of (account, id).
-- Every read of a member's transfers is bounded by time or ordered by it: the responsible-gaming
-- play sums of a limit's period (read on every bet of a member with a stake or loss limit), the
-- transaction record page (newest first by created_at, id, with its date range), the agency's
-- sums since a date. By (account, id) each of them read the member's whole history, or the
-- planner chose the site's transfers of the period instead. Same number of index entries per
-- transfer. Paging by id alone (wallet listMemberTransfers, no route) still works: it then sorts the
-- member's rows.
CREATE INDEX wallet_transfers_debit_time ON wallet_transfers (debit_account_id, created_at, id);
CREATE INDEX wallet_transfers_credit_time ON wallet_transfers (credit_account_id, created_at, id);
DROP INDEX IF EXISTS wallet_transfers_debit;
DROP INDEX IF EXISTS wallet_transfers_credit;
