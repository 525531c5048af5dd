-- Guests play crash in demo mode: a crash bet belongs to a member (real money, through the wallet)
-- or to a demo session (fun money on the session's own row, never the ledger). Exactly one owner;
-- one bet per owner and round; an idempotency key is unique per owner.
ALTER TABLE crash_bets ALTER COLUMN member_id DROP NOT NULL;
ALTER TABLE crash_bets ADD COLUMN demo_session_id bigint REFERENCES demo_sessions(id) ON DELETE CASCADE;
ALTER TABLE crash_bets ADD CONSTRAINT crash_bets_one_owner CHECK (num_nonnulls(member_id, demo_session_id) = 1);
-- Fun money never moves through the wallet.
ALTER TABLE crash_bets ADD CONSTRAINT crash_bets_demo_no_transfers
  CHECK (demo_session_id IS NULL OR (bet_transfer_id IS NULL AND win_transfer_id IS NULL));
CREATE UNIQUE INDEX crash_bets_demo_round ON crash_bets (round_id, demo_session_id)
  WHERE demo_session_id IS NOT NULL;
CREATE UNIQUE INDEX crash_bets_demo_key ON crash_bets (demo_session_id, idempotency_key)
  WHERE demo_session_id IS NOT NULL;
-- The game record reads a member's settled crash bets by time.
CREATE INDEX crash_bets_member_time ON crash_bets (member_id, created_at) WHERE member_id IS NOT NULL;
