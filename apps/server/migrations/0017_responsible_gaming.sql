-- Responsible gaming (issue 13): the rules of each jurisdiction as data, the player's limits,
-- pauses and self-exclusions, and the checks against a national self-exclusion registry.

-- What each jurisdiction profile demands. The code reads these rows; it never asks "is this br".
CREATE TABLE jurisdiction_profiles (
  jurisdiction             text PRIMARY KEY CHECK (jurisdiction IN ('intl', 'br')),
  -- Registration asks for (and checks) a CPF, one account per CPF.
  requires_cpf             boolean NOT NULL,
  -- Registration asks for the date of birth and refuses anyone under the site's min_age.
  requires_birth_date      boolean NOT NULL,
  -- Limit kinds a player must set at registration (Portaria SPA/MF 2.579/2025: loss and time).
  mandatory_limits         text[] NOT NULL DEFAULT '{}',
  -- A raised or removed limit takes effect this many hours after the request.
  loosen_delay_hours       integer NOT NULL CHECK (loosen_delay_hours BETWEEN 0 AND 720),
  -- Default reality-check interval for new players, in minutes (0 = off until the player sets one).
  reality_check_minutes    integer NOT NULL CHECK (reality_check_minutes BETWEEN 0 AND 1440),
  -- Query the national self-exclusion registry by CPF: at sign-up, at the first login of each day
  -- and when the last answer is older than registry_recheck_days (IN SPA 31/2025).
  self_exclusion_registry  boolean NOT NULL,
  registry_recheck_days    integer NOT NULL CHECK (registry_recheck_days BETWEEN 1 AND 365),
  -- The risk message is shown at sign-up and at login.
  shows_risk_message       boolean NOT NULL
);
INSERT INTO jurisdiction_profiles VALUES
  ('intl', false, false, '{}', 24, 0, false, 15, false),
  ('br', true, true, '{loss,session_time}', 24, 30, true, 15, true);

ALTER TABLE members ADD COLUMN birth_date date;
-- One account per CPF on each site.
CREATE UNIQUE INDEX members_site_cpf ON members (site_id, cpf) WHERE cpf IS NOT NULL;
-- Minutes between reality-check reminders (NULL or 0: off).
ALTER TABLE members ADD COLUMN reality_check_minutes integer CHECK (reality_check_minutes BETWEEN 0 AND 1440);
-- The last answer of the national registry for this member's CPF.
ALTER TABLE members ADD COLUMN registry_checked_at timestamptz;

-- A player's limit: money limits in centavos, the session-time limit in minutes, per period.
-- A tighter value applies at once; a looser one (or removal) waits in pending_* until its time.
CREATE TABLE rg_limits (
  member_id           bigint NOT NULL REFERENCES members(id),
  site_id             bigint NOT NULL REFERENCES sites(id),
  kind                text NOT NULL CHECK (kind IN ('deposit', 'loss', 'stake', 'session_time')),
  period              text NOT NULL CHECK (period IN ('day', 'week', 'month')),
  value               bigint CHECK (value > 0),
  pending_value       bigint CHECK (pending_value > 0),
  pending_remove      boolean NOT NULL DEFAULT false,
  pending_effective_at timestamptz,
  updated_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, kind, period),
  CHECK ((pending_effective_at IS NULL) = (pending_value IS NULL AND NOT pending_remove)),
  CHECK (NOT (pending_remove AND pending_value IS NOT NULL))
);

-- Pauses (cooling-off) and self-exclusions. ends_at NULL: indefinite.
CREATE TABLE rg_exclusions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint NOT NULL REFERENCES members(id),
  kind        text NOT NULL CHECK (kind IN ('cooling_off', 'self_exclusion', 'registry')),
  starts_at   timestamptz NOT NULL DEFAULT now(),
  ends_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX rg_exclusions_member ON rg_exclusions (member_id, id DESC);

-- A session opened while the member is paused or excluded: it reaches only the withdrawal, balance
-- and account pages, so the balance stays withdrawable while play and deposits are closed.
ALTER TABLE member_sessions ADD COLUMN restricted boolean NOT NULL DEFAULT false;

-- Every query to the self-exclusion registry, kept as the record of contact (5 years, IN 31/2025).
CREATE TABLE registry_checks (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint REFERENCES members(id),
  cpf         text NOT NULL CHECK (cpf ~ '^[0-9]{11}$'),
  reason      text NOT NULL CHECK (reason IN ('sign_up', 'daily_login', 'periodic')),
  impeded     boolean NOT NULL,
  checked_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registry_checks_member ON registry_checks (member_id, checked_at DESC);
