-- Tamper-evident operator audit log (ADR 022): operator_actions becomes a hash chain per site.
-- Each row keeps its place in the site's chain (chain_seq 1, 2, 3 …), the hash of the row before it
-- (prev_hash; the first row of a site points at 64 zeros) and its own hash:
--   hash = sha256(prev_hash || ':' || canonical content)
-- where the canonical content is the text of a jsonb object (jsonb text output is normalised: one
-- key order, one spacing) of seq, id, site, operator, member, action, entity, entity_id, details,
-- before, after, ip and created_at (ISO 8601 UTC with microseconds); bigints as strings.
-- The chain is written by a BEFORE INSERT trigger, so every insert path is chained and nobody
-- chooses their own hash. Appends of one site are serialised by locking that site's chain-head row
-- FOR UPDATE in the inserting transaction: two concurrent actions can never fork the chain.
-- Rows written before this migration are hashed here once, in id order, so the chain of each site
-- starts at its first ever audit entry.

ALTER TABLE operator_actions ADD COLUMN chain_seq bigint;
ALTER TABLE operator_actions ADD COLUMN prev_hash text;
ALTER TABLE operator_actions ADD COLUMN hash text;

-- The canonical content of one entry (also used by the verification walk).
CREATE FUNCTION operator_action_content(
  p_seq bigint, p_id bigint, p_site_id bigint, p_operator_id bigint, p_member_id bigint, p_action text,
  p_entity text, p_entity_id text, p_details jsonb, p_before jsonb, p_after jsonb, p_ip text,
  p_created_at timestamptz
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'seq', p_seq::text,
    'id', p_id::text,
    'site', p_site_id::text,
    'operator', p_operator_id::text,
    'member', p_member_id::text,
    'action', p_action,
    'entity', p_entity,
    'entity_id', p_entity_id,
    'details', p_details,
    'before', p_before,
    'after', p_after,
    'ip', p_ip,
    'created_at', to_char(p_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  )::text
$$;

CREATE FUNCTION operator_action_hash(p_prev_hash text, p_content text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(p_prev_hash || ':' || p_content, 'UTF8')), 'hex')
$$;

-- The head of each site's chain: the last entry's place and hash (its row is the per-site lock).
CREATE TABLE operator_action_chain_heads (
  site_id    bigint PRIMARY KEY REFERENCES sites(id),
  last_seq   bigint NOT NULL DEFAULT 0,
  last_hash  text NOT NULL DEFAULT repeat('0', 64) CHECK (last_hash ~ '^[0-9a-f]{64}$'),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Hash the rows written before this migration (the append-only trigger is off for this one pass).
ALTER TABLE operator_actions DISABLE TRIGGER operator_actions_no_update_delete;
DO $$
DECLARE
  entry record;
  head_seq bigint;
  head_hash text;
  current_site bigint := NULL;
  entry_hash text;
BEGIN
  FOR entry IN SELECT * FROM operator_actions ORDER BY site_id, id LOOP
    IF current_site IS DISTINCT FROM entry.site_id THEN
      IF current_site IS NOT NULL THEN
        INSERT INTO operator_action_chain_heads (site_id, last_seq, last_hash)
        VALUES (current_site, head_seq, head_hash);
      END IF;
      current_site := entry.site_id;
      head_seq := 0;
      head_hash := repeat('0', 64);
    END IF;
    head_seq := head_seq + 1;
    entry_hash := operator_action_hash(head_hash, operator_action_content(
      head_seq, entry.id, entry.site_id, entry.operator_id, entry.member_id, entry.action, entry.entity,
      entry.entity_id, entry.details, entry.before, entry.after, entry.ip, entry.created_at));
    UPDATE operator_actions SET chain_seq = head_seq, prev_hash = head_hash, hash = entry_hash
     WHERE id = entry.id;
    head_hash := entry_hash;
  END LOOP;
  IF current_site IS NOT NULL THEN
    INSERT INTO operator_action_chain_heads (site_id, last_seq, last_hash)
    VALUES (current_site, head_seq, head_hash);
  END IF;
END;
$$;
ALTER TABLE operator_actions ENABLE TRIGGER operator_actions_no_update_delete;

ALTER TABLE operator_actions ALTER COLUMN chain_seq SET NOT NULL;
ALTER TABLE operator_actions ALTER COLUMN prev_hash SET NOT NULL;
ALTER TABLE operator_actions ALTER COLUMN hash SET NOT NULL;
ALTER TABLE operator_actions ADD CONSTRAINT operator_actions_chain_seq_key UNIQUE (site_id, chain_seq);

-- Every new entry: lock the site's head, take the next place, chain to the head's hash, move the head.
CREATE FUNCTION operator_actions_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head operator_action_chain_heads%ROWTYPE;
BEGIN
  SELECT * INTO head FROM operator_action_chain_heads WHERE site_id = NEW.site_id FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO operator_action_chain_heads (site_id) VALUES (NEW.site_id) ON CONFLICT (site_id) DO NOTHING;
    SELECT * INTO head FROM operator_action_chain_heads WHERE site_id = NEW.site_id FOR UPDATE;
  END IF;
  NEW.chain_seq := head.last_seq + 1;
  NEW.prev_hash := head.last_hash;
  NEW.hash := operator_action_hash(head.last_hash, operator_action_content(
    NEW.chain_seq, NEW.id, NEW.site_id, NEW.operator_id, NEW.member_id, NEW.action, NEW.entity,
    NEW.entity_id, NEW.details, NEW.before, NEW.after, NEW.ip, NEW.created_at));
  UPDATE operator_action_chain_heads
     SET last_seq = NEW.chain_seq, last_hash = NEW.hash, updated_at = now()
   WHERE site_id = NEW.site_id;
  RETURN NEW;
END;
$$;
CREATE TRIGGER operator_actions_chain BEFORE INSERT ON operator_actions
  FOR EACH ROW EXECUTE FUNCTION operator_actions_chain();
