-- Identity verification, KYC (issue 36 §1, ADR 036): which checks each jurisdiction profile
-- requires before a deposit, a bet or a withdrawal, as data; each member's verified checks; the
-- sessions opened at the KYC provider, every check's outcome and the provider's webhook events.

-- What a profile requires before an action. The code reads these rows; it never asks "is this br".
-- required_checks: 'cpf' (the CPF exists and is regular at the Receita Federal, the name and birth
-- date match it, age >= the site's min_age) and 'identity' (an identity document and a selfie
-- with liveness, decided by the provider). A member always has the basic tier (the sign-up data).
-- Only a withdrawal carries amounts: both NULL → the rule always applies; else it applies when the
-- withdrawal is above above_amount_minor or when the member's withdrawals, this one included, pass
-- above_total_minor. legal_basis cites the article the row encodes.
CREATE TABLE kyc_rules (
  jurisdiction        text NOT NULL REFERENCES jurisdiction_profiles (jurisdiction),
  action              text NOT NULL CHECK (action IN ('deposit', 'bet', 'withdrawal')),
  required_checks     text[] NOT NULL CHECK (required_checks <@ '{cpf,identity}'::text[]),
  above_amount_minor  bigint CHECK (above_amount_minor >= 0),
  above_total_minor   bigint CHECK (above_total_minor >= 0),
  legal_basis         text NOT NULL CHECK (char_length(legal_basis) BETWEEN 1 AND 500),
  PRIMARY KEY (jurisdiction, action),
  CHECK (action = 'withdrawal' OR (above_amount_minor IS NULL AND above_total_minor IS NULL))
);
INSERT INTO kyc_rules VALUES
  ('br', 'deposit', '{cpf,identity}', NULL, NULL,
   'Lei 14.790/2023 art. 26 I (no bettor under 18); Portaria SPA/MF 1.231/2024 art. 8 (who may not register or bet, checked at sign-up); Portaria SPA/MF 722/2024, annex on bettor identification (identity validated with facial recognition before the account is active)'),
  ('br', 'bet', '{cpf,identity}', NULL, NULL,
   'Lei 14.790/2023 art. 26 I; Portaria SPA/MF 1.231/2024 art. 8; Portaria SPA/MF 722/2024, annex on bettor identification (no bet before the identity is validated)'),
  ('br', 'withdrawal', '{cpf,identity}', NULL, NULL,
   'Portaria SPA/MF 722/2024, annex on bettor identification; Portaria SPA/MF 1.231/2024 (prizes paid only to the verified account holder)'),
  ('intl', 'deposit', '{}', NULL, NULL, 'Basic tier at sign-up (operator policy, no jurisdiction rule)'),
  ('intl', 'bet', '{}', NULL, NULL, 'Basic tier at sign-up (operator policy, no jurisdiction rule)'),
  ('intl', 'withdrawal', '{identity}', 200000, 1000000,
   'Operator policy (FATF Recommendation 10, customer due diligence above a threshold): document and selfie before a withdrawal above R$ 2.000,00 and before total withdrawals pass R$ 10.000,00');

-- A site's own withdrawal thresholds, when it has its own; a site without a row uses its profile's.
CREATE TABLE site_kyc_thresholds (
  site_id             bigint PRIMARY KEY REFERENCES sites (id),
  above_amount_minor  bigint CHECK (above_amount_minor >= 0),
  above_total_minor   bigint CHECK (above_total_minor >= 0),
  updated_at          timestamptz NOT NULL DEFAULT now()
);

-- The checks a member has passed (the gate reads this one row), whether the provider flagged the
-- member as a politically exposed person, and a failed CPF check's reason until one passes.
CREATE TABLE member_kyc (
  member_id      bigint PRIMARY KEY REFERENCES members (id),
  site_id        bigint NOT NULL REFERENCES sites (id),
  passed_checks  text[] NOT NULL DEFAULT '{}' CHECK (passed_checks <@ '{cpf,identity}'::text[]),
  pep            boolean NOT NULL DEFAULT false,
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- A verification session at the provider (document + selfie). status follows the provider's
-- decisions: created → submitted → approved | rejected | resubmission_requested; last_sequence is
-- the provider's sequence number of the last decision applied, so an older one changes nothing.
CREATE TABLE kyc_sessions (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id              bigint NOT NULL REFERENCES sites (id),
  member_id            bigint NOT NULL REFERENCES members (id),
  provider             text NOT NULL CHECK (char_length(provider) BETWEEN 1 AND 40),
  provider_session_id  text NOT NULL CHECK (char_length(provider_session_id) BETWEEN 1 AND 100),
  capture_url          text NOT NULL CHECK (char_length(capture_url) BETWEEN 1 AND 2000),
  status               text NOT NULL DEFAULT 'created'
                       CHECK (status IN ('created', 'submitted', 'approved', 'rejected', 'resubmission_requested')),
  reason               text CHECK (char_length(reason) <= 500),
  last_sequence        integer NOT NULL DEFAULT 0 CHECK (last_sequence >= 0),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_session_id)
);
CREATE INDEX kyc_sessions_member ON kyc_sessions (member_id, id DESC);

-- Every check's outcome, append-only: the record of what was verified, when and why.
CREATE TABLE kyc_checks (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id       bigint NOT NULL REFERENCES sites (id),
  member_id     bigint NOT NULL REFERENCES members (id),
  check_kind    text NOT NULL CHECK (check_kind IN ('cpf', 'identity', 'pep')),
  outcome       text NOT NULL CHECK (outcome IN ('passed', 'failed', 'resubmit', 'flagged')),
  reason        text CHECK (char_length(reason) <= 500),
  session_id    bigint REFERENCES kyc_sessions (id),
  -- 'provider' (a lookup or a decision), 'seed' (demo accounts) or 'operator'.
  source        text NOT NULL CHECK (source IN ('provider', 'seed', 'operator')),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kyc_checks_member ON kyc_checks (member_id, id DESC);

-- The provider's webhook events already applied: a replay within the 10-minute window of its
-- timestamp finds its id here and changes nothing (older ones are refused by the timestamp).
CREATE TABLE kyc_webhook_events (
  provider     text NOT NULL CHECK (char_length(provider) BETWEEN 1 AND 40),
  event_id     text NOT NULL CHECK (char_length(event_id) BETWEEN 1 AND 100),
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX kyc_webhook_events_received ON kyc_webhook_events (received_at);
