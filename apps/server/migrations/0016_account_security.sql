-- Account security (issue 13): password and withdrawal-password changes, email binding and
-- password reset by emailed code, two-factor authentication (TOTP), the security event log and the
-- mail outbox.

-- Why a session ended. New reasons: the player changed (or reset) the password, ended the session
-- from the security centre, excluded themselves, or used up a session-time limit.
ALTER TABLE member_sessions DROP CONSTRAINT member_sessions_end_reason_check;
ALTER TABLE member_sessions ADD CONSTRAINT member_sessions_end_reason_check CHECK (end_reason IN (
  'logout', 'force_offline', 'password_changed', 'ended_by_player', 'self_excluded', 'time_limit'));
-- When the login password was last re-entered in this session (/verify-password): setting the
-- withdrawal password needs it within the last few minutes.
ALTER TABLE member_sessions ADD COLUMN password_verified_at timestamptz;
-- The moment this session uses up the member's session-time limit (NULL: no limit).
ALTER TABLE member_sessions ADD COLUMN play_until timestamptz;

ALTER TABLE members ADD COLUMN email_verified_at timestamptz;
ALTER TABLE members ADD COLUMN password_changed_at timestamptz;
-- TOTP (RFC 6238) secret, base32. Enabled once the player proved it with a first code.
ALTER TABLE members ADD COLUMN totp_secret text CHECK (totp_secret ~ '^[A-Z2-7]{16,64}$');
ALTER TABLE members ADD COLUMN totp_enabled_at timestamptz;
ALTER TABLE members ADD CONSTRAINT members_totp_enabled_needs_secret
  CHECK (totp_enabled_at IS NULL OR totp_secret IS NOT NULL);
-- A confirmed email address names one member per site.
CREATE UNIQUE INDEX members_site_verified_email ON members (site_id, lower(email))
  WHERE email_verified_at IS NOT NULL;

-- Wrong TOTP codes count like failed logins (same window, per member).
ALTER TABLE login_failures DROP CONSTRAINT login_failures_scope_check;
ALTER TABLE login_failures ADD CONSTRAINT login_failures_scope_check
  CHECK (scope IN ('account', 'ip', 'operator', 'totp', 'email_code'));

-- One-time recovery codes for a lost authenticator: only their SHA-256 is kept.
CREATE TABLE member_recovery_codes (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id  bigint NOT NULL REFERENCES members(id),
  code_hash  text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at    timestamptz
);
CREATE INDEX member_recovery_codes_member ON member_recovery_codes (member_id) WHERE used_at IS NULL;

-- Codes sent by email: binding an address, resetting a forgotten password. Hashed; short-lived;
-- a few wrong tries spend the code.
CREATE TABLE email_codes (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint NOT NULL REFERENCES members(id),
  purpose     text NOT NULL CHECK (purpose IN ('bind_email', 'reset_password')),
  email       text NOT NULL CHECK (char_length(email) <= 254),
  code_hash   text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  attempts    integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX email_codes_member_purpose ON email_codes (member_id, purpose, id);

-- The security event log: append-only (who, what, from where, when).
CREATE TABLE member_security_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint NOT NULL REFERENCES members(id),
  kind        text NOT NULL CHECK (kind ~ '^[a-z_]{2,40}$'),
  ip          text,
  user_agent  text CHECK (char_length(user_agent) <= 512),
  detail      jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_security_events_member ON member_security_events (member_id, id DESC);

CREATE FUNCTION member_security_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'P0001';
END;
$$;
CREATE TRIGGER member_security_events_no_update_delete BEFORE UPDATE OR DELETE ON member_security_events
  FOR EACH ROW EXECUTE FUNCTION member_security_events_append_only();
CREATE TRIGGER member_security_events_no_truncate BEFORE TRUNCATE ON member_security_events
  FOR EACH STATEMENT EXECUTE FUNCTION member_security_events_append_only();

-- Mail waiting to be sent (and sent mail, for the record). Written in the transaction of what it
-- tells; a sender delivers it over SMTP and retries failures.
CREATE TABLE mail_outbox (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint REFERENCES members(id),
  to_address  text NOT NULL CHECK (char_length(to_address) <= 254),
  subject     text NOT NULL CHECK (char_length(subject) <= 200),
  body_text   text NOT NULL CHECK (char_length(body_text) <= 10000),
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts    integer NOT NULL DEFAULT 0,
  last_error  text,
  next_try_at timestamptz NOT NULL DEFAULT now(),
  created_at  timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz
);
CREATE INDEX mail_outbox_pending ON mail_outbox (next_try_at) WHERE status = 'pending';
