-- Every read of a member's rounds orders by (created_at, id) and is served by
-- game_rounds_member_record_time (migration 0012), which also serves lookups by member alone; the
-- (member_id, id DESC) index of migration 0005 is read by no query, and every bet paid for it with
-- one more index entry (issue 16: the bet's cost in the database).
DROP INDEX IF EXISTS game_rounds_member_record;
