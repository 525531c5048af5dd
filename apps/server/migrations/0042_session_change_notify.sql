-- Sessions are cached in each server process (modules/auth/session-cache.ts) with their exact
-- expiry. Whatever can end or narrow a session in the database tells every process at commit:
-- pg_notify('sorte_session', member_id) from these triggers, so no code path (logout, force
-- offline, a pause, a session-time limit, a disabled or deleted member, a manual UPDATE) can
-- forget to. A rolled-back change sends nothing. Only the sliding touch of an active session
-- (last_seen_at and expires_at moved forward, nothing else changed) stays silent: it widens.

CREATE FUNCTION sorte_session_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'members' THEN
    PERFORM pg_notify('sorte_session', to_json((COALESCE(NEW, OLD)).id::text)::text);
  ELSE
    PERFORM pg_notify('sorte_session', to_json((COALESCE(NEW, OLD)).member_id::text)::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER member_sessions_changed
  AFTER UPDATE ON member_sessions
  FOR EACH ROW
  WHEN (NOT (
    NEW.last_seen_at >= OLD.last_seen_at
    AND NEW.expires_at >= OLD.expires_at
    AND (to_jsonb(NEW) - 'last_seen_at' - 'expires_at') = (to_jsonb(OLD) - 'last_seen_at' - 'expires_at')
  ))
  EXECUTE FUNCTION sorte_session_changed();

CREATE TRIGGER member_sessions_deleted
  AFTER DELETE ON member_sessions
  FOR EACH ROW EXECUTE FUNCTION sorte_session_changed();

CREATE TRIGGER members_session_relevant_change
  AFTER UPDATE OF status, deleted_at, site_id ON members
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
        OR OLD.site_id IS DISTINCT FROM NEW.site_id)
  EXECUTE FUNCTION sorte_session_changed();
