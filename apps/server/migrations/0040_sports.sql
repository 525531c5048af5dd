-- Sportsbook (issue 17): football competitions, events, markets and selections priced by the house,
-- bets and their legs. Money moves only through the wallet (kinds bet / win / refund / win_reversal,
-- keys sports-bet:<id>:…); these tables say what was bet and how it stands.
--
-- sports_competitions: per site, in display order (position); the site's first is shown first.
-- sports_events: a match; status scheduled → live → finished, or cancelled. home_goals/away_goals are
--   the live or final score; result_version counts result entries (a correction bumps it).
-- sports_markets: one per (event, type); margin is the house margin its prices were made with;
--   odds_source 'model' = priced from the selections' true probabilities + margin, 'manual' = set by
--   an operator (kept until repriced).
-- sports_selections: odds as exact decimals (numeric(8,2), 1.01–1000.00), the true probability
--   (numeric(7,6)) the model prices from, and the result once settled.
-- sports_bets: one per placement, idempotent per (member, key) with a hash of the request; payout is
--   what the ledger has paid for the bet's current outcome (a resettlement reverses it and pays the
--   new one); settle_seq counts settlements (it names each payout's idempotency key).
-- sports_bet_legs: the selection and the odds the bet was placed at (fixed once placed).

CREATE TABLE sports_competitions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  code        text NOT NULL CHECK (code ~ '^[a-z0-9_-]{2,60}$'),
  sport       text NOT NULL DEFAULT 'football' CHECK (sport IN ('football')),
  country     text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  season      text NOT NULL CHECK (char_length(season) BETWEEN 1 AND 20),
  position    integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, code),
  UNIQUE (id, site_id)
);

CREATE TABLE sports_events (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint NOT NULL,
  competition_id  bigint NOT NULL,
  external_ref    text NOT NULL CHECK (char_length(external_ref) BETWEEN 1 AND 120),
  round           integer,
  home_team       text NOT NULL CHECK (char_length(home_team) BETWEEN 1 AND 80),
  away_team       text NOT NULL CHECK (char_length(away_team) BETWEEN 1 AND 80),
  kickoff_at      timestamptz NOT NULL,
  status          text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'live', 'finished', 'cancelled')),
  home_goals      integer CHECK (home_goals BETWEEN 0 AND 99),
  away_goals      integer CHECK (away_goals BETWEEN 0 AND 99),
  result_version  integer NOT NULL DEFAULT 0,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (competition_id, site_id) REFERENCES sports_competitions (id, site_id),
  UNIQUE (competition_id, external_ref),
  UNIQUE (id, site_id),
  CONSTRAINT sports_events_score_pair CHECK ((home_goals IS NULL) = (away_goals IS NULL)),
  CONSTRAINT sports_events_finished_score CHECK (status <> 'finished' OR home_goals IS NOT NULL)
);
CREATE INDEX sports_events_site_kickoff ON sports_events (site_id, kickoff_at);

CREATE TABLE sports_markets (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL,
  event_id     bigint NOT NULL,
  type         text NOT NULL CHECK (type IN ('1x2', 'double_chance', 'over_under_2_5', 'btts')),
  status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'suspended', 'settled')),
  margin       numeric(6, 4) NOT NULL CHECK (margin >= 0 AND margin < 1),
  odds_source  text NOT NULL DEFAULT 'model' CHECK (odds_source IN ('model', 'manual', 'feed')),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (event_id, site_id) REFERENCES sports_events (id, site_id),
  UNIQUE (event_id, type)
);

CREATE TABLE sports_selections (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  market_id    bigint NOT NULL REFERENCES sports_markets(id),
  code         text NOT NULL CHECK (code ~ '^[a-z_]{2,20}$'),
  position     integer NOT NULL,
  probability  numeric(7, 6) NOT NULL CHECK (probability > 0 AND probability < 1),
  odds         numeric(8, 2) NOT NULL CHECK (odds >= 1.01 AND odds <= 1000),
  result       text CHECK (result IN ('won', 'lost', 'void')),
  UNIQUE (market_id, code)
);

CREATE TABLE sports_bets (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id                 bigint NOT NULL REFERENCES sites(id),
  member_id               bigint NOT NULL REFERENCES members(id),
  type                    text NOT NULL CHECK (type IN ('single', 'accumulator')),
  status                  text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'void', 'cashed_out')),
  stake_minor             bigint NOT NULL CHECK (stake_minor > 0),
  potential_return_minor  bigint NOT NULL CHECK (potential_return_minor >= stake_minor),
  payout_minor            bigint NOT NULL DEFAULT 0 CHECK (payout_minor >= 0),
  -- What a resettlement could not take back (the player had spent it; overdraft is impossible).
  unrecovered_minor       bigint NOT NULL DEFAULT 0 CHECK (unrecovered_minor >= 0),
  settle_seq              integer NOT NULL DEFAULT 0,
  idempotency_key         text NOT NULL,
  request_hash            text NOT NULL,
  placed_at               timestamptz NOT NULL DEFAULT now(),
  settled_at              timestamptz,
  UNIQUE (member_id, idempotency_key),
  CONSTRAINT sports_bets_settled_at CHECK ((status = 'open') = (settled_at IS NULL))
);
CREATE INDEX sports_bets_member ON sports_bets (member_id, id DESC);

CREATE TABLE sports_bet_legs (
  bet_id        bigint NOT NULL REFERENCES sports_bets(id),
  position      integer NOT NULL,
  selection_id  bigint NOT NULL REFERENCES sports_selections(id),
  market_id     bigint NOT NULL REFERENCES sports_markets(id),
  event_id      bigint NOT NULL REFERENCES sports_events(id),
  odds          numeric(8, 2) NOT NULL CHECK (odds >= 1.01),
  status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'void')),
  PRIMARY KEY (bet_id, position),
  UNIQUE (bet_id, event_id)
);
CREATE INDEX sports_bet_legs_market ON sports_bet_legs (market_id);
CREATE INDEX sports_bet_legs_event ON sports_bet_legs (event_id);
