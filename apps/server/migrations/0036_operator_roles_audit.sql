-- Back office (issue 15): operator roles, required authenticator codes, short sessions, the
-- append-only audit log and the one-time owner setup link.

-- Roles: owner (everything), finance, support, content. The former 'admin' operators become owners.
ALTER TABLE operators DROP CONSTRAINT IF EXISTS operators_role_check;
UPDATE operators SET role = 'owner' WHERE role = 'admin';
ALTER TABLE operators ADD CONSTRAINT operators_role_check
  CHECK (role IN ('owner', 'finance', 'support', 'content'));

-- Every operator signs in with a password and a TOTP code (RFC 6238). An operator without a secret
-- (created before this migration) cannot sign in until an owner resets the authenticator.
ALTER TABLE operators ADD COLUMN totp_secret text;
ALTER TABLE operators ADD COLUMN last_login_at timestamptz;
ALTER TABLE operators ADD COLUMN created_by bigint REFERENCES operators(id);

-- Short sessions: expires_at is the hard end (8 h); a session unused for the idle window ends too.
ALTER TABLE operator_sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE operator_sessions ADD COLUMN ip text;
CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id, ended_at);

-- The audit log: who (operator), what (action on entity/entity_id or member), before and after,
-- from where. Rows are written in the transaction of the action they describe, and never change.
ALTER TABLE operator_actions ADD COLUMN entity text;
ALTER TABLE operator_actions ADD COLUMN entity_id text;
ALTER TABLE operator_actions ADD COLUMN before jsonb;
ALTER TABLE operator_actions ADD COLUMN after jsonb;
ALTER TABLE operator_actions ADD COLUMN ip text;
CREATE INDEX operator_actions_site_created_idx ON operator_actions (site_id, created_at DESC, id DESC);
CREATE INDEX operator_actions_member_idx ON operator_actions (member_id, created_at DESC) WHERE member_id IS NOT NULL;
CREATE INDEX operator_actions_entity_idx ON operator_actions (site_id, entity, entity_id);

CREATE FUNCTION operator_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused): the audit log is never edited', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'P0001';
END;
$$;
CREATE TRIGGER operator_actions_no_update_delete BEFORE UPDATE OR DELETE ON operator_actions
  FOR EACH ROW EXECUTE FUNCTION operator_actions_append_only();
CREATE TRIGGER operator_actions_no_truncate BEFORE TRUNCATE ON operator_actions
  FOR EACH STATEMENT EXECUTE FUNCTION operator_actions_append_only();

-- Bootstrap: a site with no operator gets a one-time link (printed at start) for its first owner.
-- Only the SHA-256 of the token is kept; it expires and is spent by the setup.
CREATE TABLE operator_setup_tokens (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  token_hash  text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  totp_secret text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX operator_setup_tokens_site_idx ON operator_setup_tokens (site_id, expires_at);
