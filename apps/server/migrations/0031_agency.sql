-- Agency (issue 12, ADR 017): commission rules as data per site, the settlement of each period
-- exactly once, and the commissions it earned.
--
-- agency_rules: per site, created from the jurisdiction profile the first time it is read
--   (agency.profiles.ts): the basis (subordinates' turnover or net gaming revenue), the levels paid
--   (1 on br), the tiers of team volume with a rate per level, optional rates on subordinates'
--   deposits (none on br: a reward may not depend on deposits) and the period's time zone.
-- agency_settlement_runs: one row per (site, period), written in the transaction that writes the
--   period's commissions: a run killed mid-way leaves nothing, a second run finds the row and pays
--   nothing.
-- agency_commissions: what one member earned in one period from their team, by level; claimed once
--   into the wallet (idempotency key agency-commission:<site>:<period>:<member>).

CREATE TABLE agency_rules (
  site_id     bigint PRIMARY KEY REFERENCES sites(id),
  rules       jsonb NOT NULL CHECK (length(rules::text) <= 20000),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agency_settlement_runs (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL REFERENCES sites(id),
  period       text NOT NULL CHECK (period ~ '^\d{4}-\d{2}-\d{2}$'),
  rules        jsonb NOT NULL,
  members      integer NOT NULL CHECK (members >= 0),
  total_minor  bigint NOT NULL CHECK (total_minor >= 0),
  settled_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT agency_settlement_runs_once UNIQUE (site_id, period)
);

CREATE TABLE agency_commissions (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id             bigint NOT NULL REFERENCES sites(id),
  run_id              bigint NOT NULL REFERENCES agency_settlement_runs(id),
  period              text NOT NULL,
  member_id           bigint NOT NULL REFERENCES members(id),
  basis               text NOT NULL CHECK (basis IN ('turnover', 'ngr')),
  team_volume_minor   bigint NOT NULL CHECK (team_volume_minor >= 0),
  -- Per level: {"level":1,"members":3,"volume_minor":"…","rate_bps":30,"amount_minor":"…"}.
  levels              jsonb NOT NULL,
  direct_minor        bigint NOT NULL CHECK (direct_minor >= 0),
  indirect_minor      bigint NOT NULL CHECK (indirect_minor >= 0),
  amount_minor        bigint NOT NULL CHECK (amount_minor > 0 AND amount_minor = direct_minor + indirect_minor),
  status              text NOT NULL DEFAULT 'unclaimed' CHECK (status IN ('unclaimed', 'claimed')),
  claimed_at          timestamptz,
  transfer_id         bigint REFERENCES wallet_transfers(id),
  CONSTRAINT agency_commissions_claimed CHECK ((status = 'claimed') = (transfer_id IS NOT NULL)),
  CONSTRAINT agency_commissions_once UNIQUE (site_id, period, member_id)
);
CREATE INDEX agency_commissions_member ON agency_commissions (member_id, id DESC);
