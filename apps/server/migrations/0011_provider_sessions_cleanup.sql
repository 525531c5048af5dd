-- Provider sessions are one per launch. Expired ones that carried no round are deleted a few at a
-- time as new ones open (providers.service.ts); these indexes keep that sweep and the round check
-- cheap. Sessions with rounds stay: the rounds name them.
CREATE INDEX provider_sessions_expiry ON provider_sessions (expires_at);
CREATE INDEX provider_rounds_session ON provider_rounds (session_id);
