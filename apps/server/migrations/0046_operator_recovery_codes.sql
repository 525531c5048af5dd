-- One-time recovery codes for an operator's lost authenticator (as members have, migration 0016):
-- only their SHA-256 is kept. A code is accepted in place of the authenticator code at login and
-- is spent there; issuing a new set (with a current authenticator code) or an owner's reset of the
-- authenticator removes the unused ones.
CREATE TABLE operator_recovery_codes (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  operator_id bigint NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  code_hash   text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  used_at     timestamptz
);
CREATE INDEX operator_recovery_codes_operator ON operator_recovery_codes (operator_id) WHERE used_at IS NULL;
