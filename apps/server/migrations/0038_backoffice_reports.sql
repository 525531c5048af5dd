-- Back office (issue 15): operator notes on players, and the indexes the dashboard and the player
-- search read by.

-- What operators wrote about a player (support history). Append-only: a note is corrected by a new
-- note, never edited or removed, so the record of what the site knew and when stays whole.
CREATE TABLE member_notes (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL REFERENCES sites(id),
  member_id    bigint NOT NULL REFERENCES members(id),
  operator_id  bigint NOT NULL REFERENCES operators(id),
  body         text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_notes_member ON member_notes (member_id, id DESC);

CREATE FUNCTION member_notes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused): add a new note', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'P0001';
END;
$$;
CREATE TRIGGER member_notes_no_update_delete BEFORE UPDATE OR DELETE ON member_notes
  FOR EACH ROW EXECUTE FUNCTION member_notes_append_only();
CREATE TRIGGER member_notes_no_truncate BEFORE TRUNCATE ON member_notes
  FOR EACH STATEMENT EXECUTE FUNCTION member_notes_append_only();

-- The dashboard sums a site's transfers over a period: one range scan instead of the whole ledger.
CREATE INDEX wallet_transfers_site_time ON wallet_transfers (site_id, created_at);
-- New players per period.
CREATE INDEX members_site_created ON members (site_id, created_at);
