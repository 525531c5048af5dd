-- The game record pages a member's rounds newest first by (created_at, id): this index serves the
-- page, its cursor and the range totals, so a long history is read only as far as one page.
CREATE INDEX game_rounds_member_record_time ON game_rounds (member_id, created_at DESC, id DESC)
  WHERE member_id IS NOT NULL;
-- Superseded by the index above (same leading columns).
DROP INDEX game_rounds_member_time;
