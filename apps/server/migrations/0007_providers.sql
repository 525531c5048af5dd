-- Third-party games through a game aggregator (architecture.md §6, seamless wallet). The aggregator
-- runs the game and its RNG; every stake and payout is a wallet call it makes to us, recorded here
-- beside the wallet transfer it caused, in the same database transaction.

-- A launch: a short-lived opaque player token (only its SHA-256 is stored) bound to the site,
-- member, game and currency. Wallet calls find the player by it.
CREATE TABLE provider_sessions (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  aggregator    text NOT NULL CHECK (aggregator ~ '^[a-z0-9-]{2,32}$'),
  token_hash    text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  site_id       bigint NOT NULL REFERENCES sites(id),
  member_id     bigint NOT NULL REFERENCES members(id),
  game_id       bigint NOT NULL REFERENCES games(id),
  currency      text NOT NULL DEFAULT 'BRL' CHECK (currency = 'BRL'),
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  CHECK (expires_at > created_at)
);
CREATE INDEX provider_sessions_member ON provider_sessions (member_id, id DESC);

-- A round as the aggregator names it. Bets add to the stake, wins to the payout; a rollback of
-- every bet of a round that paid nothing marks it rolled back (and it pays nothing after).
CREATE TABLE provider_rounds (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  aggregator        text NOT NULL,
  round_ref         text NOT NULL CHECK (char_length(round_ref) BETWEEN 1 AND 64),
  site_id           bigint NOT NULL REFERENCES sites(id),
  member_id         bigint NOT NULL REFERENCES members(id),
  game_id           bigint NOT NULL REFERENCES games(id),
  session_id        bigint NOT NULL REFERENCES provider_sessions(id),
  stake_minor       bigint NOT NULL DEFAULT 0 CHECK (stake_minor >= 0),
  payout_minor      bigint NOT NULL DEFAULT 0 CHECK (payout_minor >= 0),
  refunded_minor    bigint NOT NULL DEFAULT 0 CHECK (refunded_minor >= 0 AND refunded_minor <= stake_minor),
  status            text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'settled', 'rolled_back')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  settled_at        timestamptz,
  UNIQUE (aggregator, round_ref),
  CHECK ((status = 'open') = (settled_at IS NULL))
);
CREATE INDEX provider_rounds_member ON provider_rounds (member_id, created_at DESC, id DESC);

-- Every wallet call that carried a transaction id, keyed by it (the aggregator's idempotency key).
-- kind 'tombstone' is a bet id that a rollback named before the bet arrived: the bet is refused.
-- `response` is the answer given, replayed byte for byte to a retry with the same request_hash.
CREATE TABLE provider_transactions (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  aggregator         text NOT NULL,
  transaction_ref    text NOT NULL CHECK (char_length(transaction_ref) BETWEEN 1 AND 64),
  kind               text NOT NULL CHECK (kind IN ('bet', 'win', 'rollback', 'tombstone')),
  site_id            bigint NOT NULL REFERENCES sites(id),
  member_id          bigint NOT NULL REFERENCES members(id),
  round_id           bigint REFERENCES provider_rounds(id),
  reference_ref      text CHECK (char_length(reference_ref) BETWEEN 1 AND 64),
  amount_minor       bigint NOT NULL DEFAULT 0 CHECK (amount_minor >= 0),
  request_hash       text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  transfer_id        bigint REFERENCES wallet_transfers(id),
  -- A bet undone by a rollback points at that rollback (each bet is refunded at most once).
  rolled_back_by     bigint REFERENCES provider_transactions(id),
  response           jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (aggregator, transaction_ref),
  CHECK (kind <> 'tombstone' OR transfer_id IS NULL),
  CHECK (rolled_back_by IS NULL OR kind = 'bet')
);
CREATE INDEX provider_transactions_round ON provider_transactions (round_id) WHERE round_id IS NOT NULL;
