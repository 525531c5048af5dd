-- "Keep me signed in": a trusted device holds a refresh token in an httpOnly cookie beside the
-- session-storage bearer token, and trades it for a new bearer token on a cold start. Each trade
-- rotates the token inside its family (one family per "keep me signed in" login); presenting a
-- token already traded means it was copied, so the whole family is revoked. Only SHA-256 hashes
-- are stored. session_id names the session each token opened, so logging that session out
-- revokes its family.
CREATE TABLE member_refresh_families (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id bigint NOT NULL REFERENCES sites (id),
  member_id bigint NOT NULL REFERENCES members (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoke_reason text,
  CHECK ((revoked_at IS NULL) = (revoke_reason IS NULL))
);
CREATE INDEX member_refresh_families_member ON member_refresh_families (member_id) WHERE revoked_at IS NULL;

CREATE TABLE member_refresh_tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  family_id bigint NOT NULL REFERENCES member_refresh_families (id),
  token_hash text NOT NULL UNIQUE,
  session_id bigint NOT NULL REFERENCES member_sessions (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz
);
CREATE INDEX member_refresh_tokens_family ON member_refresh_tokens (family_id);
CREATE INDEX member_refresh_tokens_session ON member_refresh_tokens (session_id);
