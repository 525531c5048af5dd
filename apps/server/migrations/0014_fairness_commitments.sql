-- Fairness commitments (issue 10): the next server seed is committed before the player picks the
-- client seed that goes with it, and the crash chain's salt is fixed after the chain is published,
-- from inputs the operator does not choose (docs/decisions/008-crash-salt-ceremony.md).

-- 1. Each active seed pair carries the NEXT pair's server seed, drawn in advance; only its hash is
-- shown. A rotation makes exactly that seed the new active one. On reveal the secret copy is cleared
-- (it is the new pair's active seed) and the hash stays, so the revealed history links each pair to
-- its successor. Pairs created before this migration get a next seed lazily (when the seeds are
-- shown or rotated).
ALTER TABLE fairness_seed_pairs
  ADD COLUMN next_server_seed text CHECK (next_server_seed ~ '^[0-9a-f]{64}$'),
  ADD COLUMN next_server_seed_hash text CHECK (next_server_seed_hash ~ '^[0-9a-f]{64}$');
ALTER TABLE fairness_seed_pairs ADD CONSTRAINT fairness_seed_pairs_next_hashed
  CHECK (next_server_seed IS NULL OR next_server_seed_hash IS NOT NULL);
-- A revealed pair never keeps a seed that is still in play.
ALTER TABLE fairness_seed_pairs ADD CONSTRAINT fairness_seed_pairs_next_secret
  CHECK (revealed_at IS NULL OR next_server_seed IS NULL);

-- 2. Crash salt ceremony. A new chain is published (terminating hash, created_at) with no salt;
-- the salt is fixed when the chain's first round stops taking bets, from the client seeds of that
-- round's bets in id order (at most 32): salt = SHA-256(terminating_hash ":" seed1 ":" … ":" seedN).
-- salt_inputs keeps them as published: [{ "bet_id": "…", "client_seed": "…" }, …].
-- Chains from before this migration had a salt drawn by the server with the chain: 'server'.
ALTER TABLE crash_chains ALTER COLUMN public_salt DROP NOT NULL;
ALTER TABLE crash_chains
  ADD COLUMN salt_source text NOT NULL DEFAULT 'server' CHECK (salt_source IN ('server', 'bets')),
  ADD COLUMN salt_inputs jsonb CHECK (salt_inputs IS NULL OR jsonb_typeof(salt_inputs) = 'array'),
  ADD COLUMN salt_fixed_at timestamptz;
UPDATE crash_chains SET salt_fixed_at = created_at;
ALTER TABLE crash_chains ALTER COLUMN salt_source SET DEFAULT 'bets';
ALTER TABLE crash_chains ADD CONSTRAINT crash_chains_salt_fixed CHECK (
  (public_salt IS NULL) = (salt_fixed_at IS NULL)
  AND (salt_source = 'server' OR (public_salt IS NULL) = (salt_inputs IS NULL))
  AND (salt_source = 'bets' OR public_salt IS NOT NULL));
-- The engine opens no new round on a server-salted chain (it finishes the round it is on and starts
-- a new chain under the ceremony), so such a chain stays short of its length.

-- A round's crash point can only be computed once its chain has a salt: the first round of a chain
-- gets it when its betting closes. Past betting it is always known.
ALTER TABLE crash_rounds ALTER COLUMN crash_hundredths DROP NOT NULL;
ALTER TABLE crash_rounds ADD CONSTRAINT crash_rounds_point_known
  CHECK (state = 'betting' OR crash_hundredths IS NOT NULL);

-- The client seed each crash bet brings to the salt ceremony: the one in the bet, or the player's
-- provably-fair client seed. Bets from before this migration have none.
ALTER TABLE crash_bets ADD COLUMN client_seed text CHECK (client_seed ~ '^[ -~]{1,64}$');
