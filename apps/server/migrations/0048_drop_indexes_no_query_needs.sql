-- Two indexes every bet paid for and no query needs (issue 16: the bet's cost in the database):
-- * wallet_transfers_reference: no query looks transfers up by reference (statements, reports and
--   the ledger read them by account, site and time, or by idempotency key); one index entry less
--   for each of a bet's transfers.
-- * member_recent_games_latest: a member has one row per game played, read through the primary key
--   (member_id, game_id) and sorted in memory (a few dozen rows at most). Because it indexed
--   played_at, each bet's "played just now" update was a new row version with two index entries;
--   without it the update stays on its page (a HOT update) and touches no index.
DROP INDEX IF EXISTS wallet_transfers_reference;
DROP INDEX IF EXISTS member_recent_games_latest;
