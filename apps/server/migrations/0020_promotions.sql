-- Promotions, bonus grants, VIP and scheduled jobs (issue 11, ADR 012 and 013).
--
-- promo_campaigns: the campaigns of a site as data (trigger, reward formula, tiers, caps, schedule
--   with time zone, eligibility, wagering multiple, max bet while wagering, category weights,
--   expiry). Seeded per site from its jurisdiction profile (promotions.profiles.ts); an off campaign
--   keeps its row with the reason shown to players.
-- bonus_grants: one reward given to one member. `terms` snapshots the campaign's rules at grant time
--   (later edits never reach it). `balance_minor` is the grant's part of the member's `bonus`
--   account; only the wallet module (wallet.bonus.ts) changes it, in the same transaction as the
--   ledger transfer that moves the money, each transfer naming the grant in metadata.grantId.
--   UNIQUE (site, member, campaign, period_key) makes every claim / job payment happen once.
-- member_turnover: stakes per member, site-local day and game category (rebates, VIP on wagering).
-- member_vip: lifetime totals and the level reached (a level never goes down); level-ups waiting
--   to be pushed over the live socket.
-- promo_job_runs: one row per (job, site, period): a job runs a period exactly once across
--   processes, and a run killed mid-way is finished by the next attempt (its payments are keyed).

CREATE TABLE promo_campaigns (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  code        text NOT NULL CHECK (code ~ '^[a-z_]{2,40}$'),
  enabled     boolean NOT NULL,
  -- Message key shown when the campaign is off on this site (e.g. why Brazilian rules forbid it).
  off_reason  text CHECK (off_reason IS NULL OR char_length(off_reason) <= 120),
  rules       jsonb NOT NULL,
  position    integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT promo_campaigns_off_reason CHECK (enabled OR off_reason IS NOT NULL),
  UNIQUE (site_id, code)
);

CREATE TABLE bonus_grants (
  id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id                  bigint NOT NULL REFERENCES sites(id),
  member_id                bigint NOT NULL REFERENCES members(id),
  campaign_code            text NOT NULL CHECK (char_length(campaign_code) <= 40),
  -- Which occurrence this is: 'once', a site-local day '2026-01-31', 'deposit:R…', 'spin:…'.
  period_key               text NOT NULL CHECK (char_length(period_key) BETWEEN 1 AND 100),
  terms                    jsonb NOT NULL,
  amount_minor             bigint NOT NULL CHECK (amount_minor > 0 AND amount_minor <= 9999999999999),
  balance_minor            bigint NOT NULL CHECK (balance_minor >= 0),
  wagering_required_minor  bigint NOT NULL CHECK (wagering_required_minor >= 0),
  wagering_done_minor      bigint NOT NULL DEFAULT 0 CHECK (wagering_done_minor >= 0),
  -- Largest stake accepted while this grant is wagering (NULL: no limit).
  max_bet_minor            bigint CHECK (max_bet_minor IS NULL OR max_bet_minor > 0),
  -- Wagering on the grant also locks the member's cash (a recharge reward locks its deposit).
  locks_cash               boolean NOT NULL DEFAULT true,
  status                   text NOT NULL DEFAULT 'active'
                           CHECK (status IN ('active', 'completed', 'expired', 'forfeited')),
  expires_at               timestamptz NOT NULL,
  created_at               timestamptz NOT NULL DEFAULT now(),
  closed_at                timestamptz,
  -- The bonus_grant transfer, and the bonus_convert / bonus_forfeit that closed the grant.
  grant_transfer_id        bigint REFERENCES wallet_transfers(id),
  close_transfer_id        bigint REFERENCES wallet_transfers(id),
  converted_minor          bigint NOT NULL DEFAULT 0 CHECK (converted_minor >= 0),
  forfeited_minor          bigint NOT NULL DEFAULT 0 CHECK (forfeited_minor >= 0),
  CONSTRAINT bonus_grants_closed CHECK ((status = 'active') = (closed_at IS NULL)),
  CONSTRAINT bonus_grants_closed_empty CHECK (status = 'active' OR balance_minor = 0),
  CONSTRAINT bonus_grants_once UNIQUE (site_id, member_id, campaign_code, period_key)
);
-- The bet path's lookup: the member's active grants, earliest expiry first.
CREATE INDEX bonus_grants_active ON bonus_grants (member_id, expires_at, id) WHERE status = 'active';
CREATE INDEX bonus_grants_expiry ON bonus_grants (site_id, expires_at) WHERE status = 'active';
CREATE INDEX bonus_grants_member ON bonus_grants (member_id, id);

CREATE TABLE member_turnover (
  site_id            bigint NOT NULL REFERENCES sites(id),
  member_id          bigint NOT NULL REFERENCES members(id),
  day                date NOT NULL,
  category           text NOT NULL CHECK (char_length(category) <= 40),
  stake_minor        bigint NOT NULL DEFAULT 0 CHECK (stake_minor >= 0),
  -- The part staked from bonus money (excluded from rebates).
  bonus_stake_minor  bigint NOT NULL DEFAULT 0 CHECK (bonus_stake_minor >= 0),
  bets               integer NOT NULL DEFAULT 0 CHECK (bets >= 0),
  PRIMARY KEY (member_id, day, category)
);
CREATE INDEX member_turnover_site_day ON member_turnover (site_id, day);

CREATE TABLE member_vip (
  member_id             bigint PRIMARY KEY REFERENCES members(id),
  site_id               bigint NOT NULL REFERENCES sites(id),
  total_recharge_minor  bigint NOT NULL DEFAULT 0 CHECK (total_recharge_minor >= 0),
  total_betting_minor   bigint NOT NULL DEFAULT 0 CHECK (total_betting_minor >= 0),
  slot_betting_minor    bigint NOT NULL DEFAULT 0 CHECK (slot_betting_minor >= 0),
  live_betting_minor    bigint NOT NULL DEFAULT 0 CHECK (live_betting_minor >= 0),
  level                 integer NOT NULL DEFAULT 0 CHECK (level >= 0),
  updated_at            timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE vip_level_ups (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL REFERENCES sites(id),
  member_id    bigint NOT NULL REFERENCES members(id),
  track        text NOT NULL CHECK (track IN ('vip', 'slot', 'live')),
  level        integer NOT NULL CHECK (level > 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  notified_at  timestamptz,
  UNIQUE (member_id, track, level)
);
CREATE INDEX vip_level_ups_pending ON vip_level_ups (member_id) WHERE notified_at IS NULL;

CREATE TABLE promo_job_runs (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job          text NOT NULL CHECK (job IN ('cashback', 'rebates', 'expiry')),
  site_id      bigint NOT NULL REFERENCES sites(id),
  period       text NOT NULL CHECK (char_length(period) BETWEEN 1 AND 40),
  status       text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done')),
  started_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  attempts     integer NOT NULL DEFAULT 1,
  paid_count   integer NOT NULL DEFAULT 0,
  paid_minor   bigint NOT NULL DEFAULT 0,
  CONSTRAINT promo_job_runs_done CHECK ((status = 'done') = (finished_at IS NOT NULL)),
  CONSTRAINT promo_job_runs_once UNIQUE (job, site_id, period)
);

-- Bonus money credited before grants existed (the PIX +2 % channel) becomes one grant per member,
-- already wagered, so every centavo of a bonus account belongs to a grant.
INSERT INTO bonus_grants (site_id, member_id, campaign_code, period_key, terms, amount_minor,
                          balance_minor, wagering_required_minor, locks_cash, expires_at)
SELECT a.site_id, a.member_id, 'legacy', 'legacy', '{"source":"before-grants"}'::jsonb,
       a.balance_minor, a.balance_minor, 0, false, now() + interval '30 days'
FROM wallet_accounts a
WHERE a.kind = 'bonus' AND a.balance_minor > 0;
