-- The same rule for every 64-digit lowercase hex column (SHA-256 hashes, seeds, request hashes), at a
-- tenth of the cost (issue 16: the bet's cost in the database). PostgreSQL evaluates a table's CHECK
-- constraints on every insert and on every update, whatever the columns the update sets, and its
-- regular expression engine runs '^[0-9a-f]{64}$' as 64 bounded steps: 3.5 µs a value on this
-- machine, against 0.27 µs for "64 bytes, none outside 0-9a-f" (200,000 values, PostgreSQL 15).
-- Every bet paid for three to four of them (its stake and win transfers' request hashes and both
-- seeds of the pair whose nonce it moves): 7 % of PostgreSQL's CPU under the bets benchmark (perf).
-- The new rule accepts exactly the values the old one accepted; NULL still passes where the column
-- allows it. Each constraint keeps its name; adding it reads the table once to check its rows.

ALTER TABLE member_sessions DROP CONSTRAINT member_sessions_token_hash_check,
  ADD CONSTRAINT member_sessions_token_hash_check CHECK (octet_length(token_hash) = 64 AND token_hash !~ '[^0-9a-f]');
ALTER TABLE operator_sessions DROP CONSTRAINT operator_sessions_token_hash_check,
  ADD CONSTRAINT operator_sessions_token_hash_check CHECK (octet_length(token_hash) = 64 AND token_hash !~ '[^0-9a-f]');
ALTER TABLE wallet_transfers DROP CONSTRAINT wallet_transfers_hash,
  ADD CONSTRAINT wallet_transfers_hash CHECK (octet_length(request_hash) = 64 AND request_hash !~ '[^0-9a-f]');
ALTER TABLE fairness_seed_pairs DROP CONSTRAINT fairness_seed_pairs_server_seed_check,
  ADD CONSTRAINT fairness_seed_pairs_server_seed_check CHECK (octet_length(server_seed) = 64 AND server_seed !~ '[^0-9a-f]');
ALTER TABLE fairness_seed_pairs DROP CONSTRAINT fairness_seed_pairs_server_seed_hash_check,
  ADD CONSTRAINT fairness_seed_pairs_server_seed_hash_check CHECK (octet_length(server_seed_hash) = 64 AND server_seed_hash !~ '[^0-9a-f]');
ALTER TABLE fairness_seed_pairs DROP CONSTRAINT fairness_seed_pairs_next_server_seed_check,
  ADD CONSTRAINT fairness_seed_pairs_next_server_seed_check CHECK (octet_length(next_server_seed) = 64 AND next_server_seed !~ '[^0-9a-f]');
ALTER TABLE fairness_seed_pairs DROP CONSTRAINT fairness_seed_pairs_next_server_seed_hash_check,
  ADD CONSTRAINT fairness_seed_pairs_next_server_seed_hash_check CHECK (octet_length(next_server_seed_hash) = 64 AND next_server_seed_hash !~ '[^0-9a-f]');
ALTER TABLE crash_chains DROP CONSTRAINT crash_chains_terminal_seed_check,
  ADD CONSTRAINT crash_chains_terminal_seed_check CHECK (octet_length(terminal_seed) = 64 AND terminal_seed !~ '[^0-9a-f]');
ALTER TABLE crash_chains DROP CONSTRAINT crash_chains_terminating_hash_check,
  ADD CONSTRAINT crash_chains_terminating_hash_check CHECK (octet_length(terminating_hash) = 64 AND terminating_hash !~ '[^0-9a-f]');
ALTER TABLE crash_rounds DROP CONSTRAINT crash_rounds_round_hash_check,
  ADD CONSTRAINT crash_rounds_round_hash_check CHECK (octet_length(round_hash) = 64 AND round_hash !~ '[^0-9a-f]');
ALTER TABLE crash_rounds DROP CONSTRAINT crash_rounds_hash_commitment_check,
  ADD CONSTRAINT crash_rounds_hash_commitment_check CHECK (octet_length(hash_commitment) = 64 AND hash_commitment !~ '[^0-9a-f]');
ALTER TABLE provider_sessions DROP CONSTRAINT provider_sessions_token_hash_check,
  ADD CONSTRAINT provider_sessions_token_hash_check CHECK (octet_length(token_hash) = 64 AND token_hash !~ '[^0-9a-f]');
ALTER TABLE provider_transactions DROP CONSTRAINT provider_transactions_request_hash_check,
  ADD CONSTRAINT provider_transactions_request_hash_check CHECK (octet_length(request_hash) = 64 AND request_hash !~ '[^0-9a-f]');
ALTER TABLE withdrawal_orders DROP CONSTRAINT withdrawal_orders_request_hash_check,
  ADD CONSTRAINT withdrawal_orders_request_hash_check CHECK (octet_length(request_hash) = 64 AND request_hash !~ '[^0-9a-f]');
ALTER TABLE member_recovery_codes DROP CONSTRAINT member_recovery_codes_code_hash_check,
  ADD CONSTRAINT member_recovery_codes_code_hash_check CHECK (octet_length(code_hash) = 64 AND code_hash !~ '[^0-9a-f]');
ALTER TABLE email_codes DROP CONSTRAINT email_codes_code_hash_check,
  ADD CONSTRAINT email_codes_code_hash_check CHECK (octet_length(code_hash) = 64 AND code_hash !~ '[^0-9a-f]');
ALTER TABLE operator_action_chain_heads DROP CONSTRAINT operator_action_chain_heads_last_hash_check,
  ADD CONSTRAINT operator_action_chain_heads_last_hash_check CHECK (octet_length(last_hash) = 64 AND last_hash !~ '[^0-9a-f]');
ALTER TABLE operator_recovery_codes DROP CONSTRAINT operator_recovery_codes_code_hash_check,
  ADD CONSTRAINT operator_recovery_codes_code_hash_check CHECK (octet_length(code_hash) = 64 AND code_hash !~ '[^0-9a-f]');
ALTER TABLE operator_setup_tokens DROP CONSTRAINT operator_setup_tokens_token_hash_check,
  ADD CONSTRAINT operator_setup_tokens_token_hash_check CHECK (octet_length(token_hash) = 64 AND token_hash !~ '[^0-9a-f]');
