-- Crash: one shared multiplayer round at a time, outcomes fixed in advance by a hash chain
-- (@sorte/fairness). Rounds are shared by every site; bets and their money belong to a member's site.

-- A hash chain: the terminal seed stays secret, the terminating hash and the public salt are
-- published before the chain's first round. Round n of the chain plays hash number n (1-based).
CREATE TABLE crash_chains (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  terminal_seed     text NOT NULL CHECK (terminal_seed ~ '^[0-9a-f]{64}$'),
  terminating_hash  text NOT NULL UNIQUE CHECK (terminating_hash ~ '^[0-9a-f]{64}$'),
  public_salt       text NOT NULL CHECK (length(public_salt) BETWEEN 1 AND 128),
  length            integer NOT NULL CHECK (length BETWEEN 1 AND 1000000),
  -- The last position played (0: none yet). A chain is used up when position = length.
  position          integer NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND length),
  created_at        timestamptz NOT NULL DEFAULT now()
);

-- A round. round_hash and crash_hundredths are secret until state = 'crashed': no query that
-- answers a client reads them before then.
CREATE TABLE crash_rounds (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  chain_id          bigint NOT NULL REFERENCES crash_chains(id),
  position          integer NOT NULL CHECK (position >= 1),
  round_hash        text NOT NULL CHECK (round_hash ~ '^[0-9a-f]{64}$'),
  -- SHA-256 of round_hash: the previous round's hash (or the terminating hash), shown before the round.
  hash_commitment   text NOT NULL CHECK (hash_commitment ~ '^[0-9a-f]{64}$'),
  crash_hundredths  integer NOT NULL CHECK (crash_hundredths BETWEEN 100 AND 100000000),
  state             text NOT NULL DEFAULT 'betting' CHECK (state IN ('betting', 'running', 'crashed')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  betting_ends_at   timestamptz NOT NULL,
  started_at        timestamptz,
  crashed_at        timestamptz,
  UNIQUE (chain_id, position),
  CHECK ((state = 'betting') = (started_at IS NULL)),
  CHECK ((state = 'crashed') = (crashed_at IS NOT NULL))
);
CREATE INDEX crash_rounds_by_state ON crash_rounds (state, id DESC);

-- A member's bet on a round. Settlement flips status from 'placed' exactly once
-- (UPDATE … WHERE status = 'placed'); the stake and the win are wallet transfers keyed by the bet id.
CREATE TABLE crash_bets (
  id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  round_id                 bigint NOT NULL REFERENCES crash_rounds(id),
  site_id                  bigint NOT NULL REFERENCES sites(id),
  member_id                bigint NOT NULL REFERENCES members(id),
  stake_minor              bigint NOT NULL CHECK (stake_minor > 0),
  auto_cashout_hundredths  integer CHECK (auto_cashout_hundredths BETWEEN 101 AND 100000000),
  cashout_hundredths       integer CHECK (cashout_hundredths BETWEEN 101 AND 100000000),
  payout_minor             bigint NOT NULL DEFAULT 0 CHECK (payout_minor >= 0),
  status                   text NOT NULL DEFAULT 'placed' CHECK (status IN ('placed', 'cashed', 'lost')),
  idempotency_key          text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 64),
  request_hash             text NOT NULL,
  bet_transfer_id          bigint REFERENCES wallet_transfers(id),
  win_transfer_id          bigint REFERENCES wallet_transfers(id),
  created_at               timestamptz NOT NULL DEFAULT now(),
  settled_at               timestamptz,
  UNIQUE (round_id, member_id),
  UNIQUE (member_id, idempotency_key),
  CHECK ((status = 'cashed') = (cashout_hundredths IS NOT NULL)),
  CHECK ((status = 'placed') = (settled_at IS NULL))
);
CREATE INDEX crash_bets_open ON crash_bets (round_id) WHERE status = 'placed';
CREATE INDEX crash_bets_member ON crash_bets (member_id, id DESC);
