-- Anti-money-laundering monitoring (issue 36 §2, ADR 040): the rules of each jurisdiction profile
-- as rows, an outbox written in the money transactions, the alerts the screening job opens, the
-- cases that gather a player's alerts, the holds on a player's withdrawals and the files sent to
-- COAF (or kept for the regulator).

-- A profile's rules. The engine reads these rows and never asks which profile it is.
-- rule: what is checked (modules/aml/aml.rules.ts evaluates each kind); params: its figures
-- (amounts in minor units); legal_basis: the article it applies, or why it is operator policy.
CREATE TABLE aml_rules (
  jurisdiction  text NOT NULL REFERENCES jurisdiction_profiles (jurisdiction),
  rule          text NOT NULL CHECK (rule IN ('large_amount', 'quick_cashout', 'structuring',
                  'shared_identifier', 'payer_cpf_mismatch', 'disproportionate_win', 'pep', 'surge')),
  params        jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(params) = 'object'),
  legal_basis   text NOT NULL CHECK (char_length(legal_basis) BETWEEN 1 AND 600),
  enabled       boolean NOT NULL DEFAULT true,
  PRIMARY KEY (jurisdiction, rule)
);

INSERT INTO aml_rules (jurisdiction, rule, params, legal_basis) VALUES
  ('br', 'large_amount', '{"threshold_minor": 1000000, "kinds": ["deposit", "withdrawal"]}',
   'Portaria SPA/MF 1.143/2024 art. 24 (monitoring and communication to COAF of operations with signs of money laundering; secondary sources). The amount (R$ 10.000,00) is operator policy: we found no amount in the ordinance we could verify in the DOU text; verify before a licence audit'),
  ('br', 'quick_cashout', '{"window_days": 7, "min_deposits_minor": 100000, "max_wager_share_bps": 3000}',
   'Portaria SPA/MF 1.143/2024 art. 24 (operations weighed against the bettor''s habitual behaviour; secondary sources). Deposit-then-withdraw with little play is a common operator rule, not a figure of the ordinance; verify the article before a licence audit'),
  ('br', 'structuring', '{"threshold_minor": 1000000, "floor_bps": 8000, "min_count": 3, "window_hours": 24, "kinds": ["deposit", "withdrawal"]}',
   'Portaria SPA/MF 1.143/2024 art. 24 (secondary sources): amounts split to stay under the monitoring threshold. The 80 % band, three operations and 24 h are operator policy; verify before a licence audit'),
  ('br', 'shared_identifier', '{"window_days": 30, "min_other_accounts": {"device": 2, "ip": 3, "pix_key": 1, "payer_cpf": 1}}',
   'Portaria SPA/MF 1.143/2024 art. 25 (red flag: accounts used by third parties; secondary sources, not read in the DOU text); verify before a licence audit'),
  ('br', 'payer_cpf_mismatch', '{}',
   'Portaria SPA/MF 1.143/2024 art. 25 (red flag: accounts used by third parties; secondary sources) and Lei 14.790/2023 (payments only from the bettor''s own account); verify the article before a licence audit'),
  ('br', 'disproportionate_win', '{"min_win_minor": 500000, "min_multiple": 100}',
   'Portaria SPA/MF 1.143/2024 art. 25 (red flag: prizes out of proportion; secondary sources, not read in the DOU text). R$ 5.000,00 and 100x the stake are operator policy; verify before a licence audit'),
  ('br', 'pep', '{}',
   'Portaria SPA/MF 1.143/2024 (qualification of the bettor includes checking whether they are a politically exposed person; secondary sources, article not verified in the DOU text); verify before a licence audit'),
  ('br', 'surge', '{"window_hours": 24, "history_days": 90, "min_history_days": 14, "multiple": 5, "min_amount_minor": 200000}',
   'Portaria SPA/MF 1.143/2024 art. 24 (the bettor''s habitual behaviour weighed in the analysis; secondary sources). The multiple and windows are operator policy; verify before a licence audit'),
  ('intl', 'large_amount', '{"threshold_minor": 300000, "kinds": ["deposit", "withdrawal"]}',
   'Operator policy after FATF Recommendation 22 (casinos: customer due diligence on financial transactions of USD/EUR 3,000 or more), applied in the site currency; not a jurisdiction''s rule'),
  ('intl', 'quick_cashout', '{"window_days": 7, "min_deposits_minor": 100000, "max_wager_share_bps": 3000}',
   'Operator policy (FATF guidance on casinos: cash-in, little play, cash-out); not a jurisdiction''s rule'),
  ('intl', 'structuring', '{"threshold_minor": 300000, "floor_bps": 8000, "min_count": 3, "window_hours": 24, "kinds": ["deposit", "withdrawal"]}',
   'Operator policy (FATF Recommendation 22: structuring below the threshold); not a jurisdiction''s rule'),
  ('intl', 'shared_identifier', '{"window_days": 30, "min_other_accounts": {"device": 2, "ip": 3, "pix_key": 1, "payer_cpf": 1}}',
   'Operator policy (accounts operated by one person or used by third parties); not a jurisdiction''s rule'),
  ('intl', 'payer_cpf_mismatch', '{}',
   'Operator policy (third-party funding); not a jurisdiction''s rule'),
  ('intl', 'disproportionate_win', '{"min_win_minor": 500000, "min_multiple": 100}',
   'Operator policy (a prize out of proportion to the stake); not a jurisdiction''s rule'),
  ('intl', 'pep', '{}',
   'Operator policy after FATF Recommendation 12 (politically exposed persons: enhanced due diligence); not a jurisdiction''s rule'),
  ('intl', 'surge', '{"window_hours": 24, "history_days": 90, "min_history_days": 14, "multiple": 5, "min_amount_minor": 200000}',
   'Operator policy (activity out of line with the customer''s own history); not a jurisdiction''s rule');

-- What the screening job reads: one row per deposit credited, withdrawal requested and login,
-- inserted in the transaction that commits it (a rolled-back deposit leaves none; a crash after
-- the commit leaves the row for the next run). Wins are read from the ledger instead (ADR 040).
-- identifiers: what the shared-identifier and payer rules compare (ip, device, pix_key,
-- payer_cpf), each present only when the event carries it.
CREATE TABLE aml_outbox (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id       bigint NOT NULL REFERENCES sites (id),
  member_id     bigint NOT NULL REFERENCES members (id),
  kind          text NOT NULL CHECK (kind IN ('deposit', 'withdrawal', 'login')),
  amount_minor  bigint NOT NULL DEFAULT 0 CHECK (amount_minor >= 0),
  reference     text NOT NULL CHECK (char_length(reference) BETWEEN 1 AND 100),
  identifiers   jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  screened_at   timestamptz
);
CREATE INDEX aml_outbox_unscreened ON aml_outbox (id) WHERE screened_at IS NULL;
CREATE INDEX aml_outbox_member_time ON aml_outbox (member_id, kind, created_at);

-- Who was seen with which identifier (device, ip, pix_key, payer_cpf), upserted by the screening
-- job from the outbox: the shared-identifier rule counts the other members of a value. device is
-- the SHA-256 of the client's user agent (the platform's notion of a device, as the new-device
-- notice has it).
CREATE TABLE aml_identifiers (
  site_id     bigint NOT NULL REFERENCES sites (id),
  kind        text NOT NULL CHECK (kind IN ('device', 'ip', 'pix_key', 'payer_cpf')),
  value       text NOT NULL CHECK (char_length(value) BETWEEN 1 AND 200),
  member_id   bigint NOT NULL REFERENCES members (id),
  last_seen   timestamptz NOT NULL,
  PRIMARY KEY (site_id, kind, value, member_id)
);

-- How far the screening job has read a source it does not own (the ledger's wins). Screening
-- starts with the ledger as it is when this migration runs: wins before it are not screened.
CREATE TABLE aml_cursors (
  source   text PRIMARY KEY CHECK (char_length(source) BETWEEN 1 AND 40),
  last_id  bigint NOT NULL DEFAULT 0
);
INSERT INTO aml_cursors (source, last_id) SELECT 'ledger_wins', coalesce(max(id), 0) FROM wallet_transfers;

-- A player's alerts under review. At most one open case per member: new alerts join it.
-- status: open → closed (with a reason) | reported (a COAF communication was made).
CREATE TABLE aml_cases (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint NOT NULL REFERENCES sites (id),
  member_id       bigint NOT NULL REFERENCES members (id),
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'reported')),
  assigned_to     bigint REFERENCES operators (id),
  decision_reason text CHECK (char_length(decision_reason) <= 2000),
  decided_by      bigint REFERENCES operators (id),
  decided_at      timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'open') = (decided_at IS NULL))
);
CREATE UNIQUE INDEX aml_cases_one_open ON aml_cases (member_id) WHERE status = 'open';
CREATE INDEX aml_cases_site ON aml_cases (site_id, id DESC);

-- A rule's hit. dedupe_key names what it is about (an outbox row, a ledger transfer, a member),
-- so screening the same event again opens no second alert.
CREATE TABLE aml_alerts (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id       bigint NOT NULL REFERENCES sites (id),
  member_id     bigint NOT NULL REFERENCES members (id),
  case_id       bigint NOT NULL REFERENCES aml_cases (id),
  rule          text NOT NULL,
  dedupe_key    text NOT NULL CHECK (char_length(dedupe_key) BETWEEN 1 AND 200),
  amount_minor  bigint NOT NULL DEFAULT 0,
  evidence      jsonb NOT NULL DEFAULT '{}'::jsonb,
  legal_basis   text NOT NULL,
  event_at      timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT aml_alerts_once UNIQUE (site_id, rule, dedupe_key)
);
CREATE INDEX aml_alerts_case ON aml_alerts (case_id, id);
CREATE INDEX aml_alerts_site ON aml_alerts (site_id, id DESC);

CREATE TABLE aml_case_notes (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  case_id      bigint NOT NULL REFERENCES aml_cases (id),
  operator_id  bigint NOT NULL REFERENCES operators (id),
  body         text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 4000),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX aml_case_notes_case ON aml_case_notes (case_id, id);

-- A member whose withdrawals compliance holds: none is approved while the row exists; the player
-- sees the ordinary review status.
CREATE TABLE aml_holds (
  member_id   bigint PRIMARY KEY REFERENCES members (id),
  site_id     bigint NOT NULL REFERENCES sites (id),
  case_id     bigint NOT NULL REFERENCES aml_cases (id),
  held_by     bigint NOT NULL REFERENCES operators (id),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Files compliance produced: a COAF communication of a case, a year's non-occurrence declaration,
-- a year's annual report. content is the exact text downloaded; sha256 its hex checksum.
CREATE TABLE aml_reports (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL REFERENCES sites (id),
  kind         text NOT NULL CHECK (kind IN ('coaf', 'non_occurrence', 'annual')),
  year         integer NOT NULL CHECK (year BETWEEN 2000 AND 2200),
  case_id      bigint REFERENCES aml_cases (id),
  file_name    text NOT NULL CHECK (char_length(file_name) BETWEEN 1 AND 200),
  content      text NOT NULL,
  sha256       text NOT NULL CHECK (octet_length(sha256) = 64 AND sha256 !~ '[^0-9a-f]'),
  created_by   bigint NOT NULL REFERENCES operators (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'coaf') = (case_id IS NOT NULL))
);
CREATE INDEX aml_reports_site ON aml_reports (site_id, kind, year);

-- The compliance officer's role (packages/contract admin.ts: compliance.read, compliance.manage).
ALTER TABLE operators DROP CONSTRAINT IF EXISTS operators_role_check;
ALTER TABLE operators ADD CONSTRAINT operators_role_check
  CHECK (role IN ('owner', 'finance', 'support', 'content', 'compliance'));
