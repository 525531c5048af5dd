-- A round's site is its owner's site (issue 16: the bet's cost in the database).
-- game_rounds referenced sites, members and demo_sessions by three single keys: a round could name
-- one site and a member (or demo session) of another, and PostgreSQL ran a query of its own for
-- each key of every round inserted, the one to sites locking the site's row (one row that every
-- bet of the site shares). The owner's key now takes the site with it: (member_id, site_id) is a
-- member of that site, (demo_session_id, site_id) a demo session of that site, and members and
-- demo sessions reference sites. The CHECK game_rounds_one_owner makes exactly one of the two
-- apply to each round, so every round's site is held, and one query per round less is run.
ALTER TABLE members ADD CONSTRAINT members_id_site_key UNIQUE (id, site_id);
ALTER TABLE demo_sessions ADD CONSTRAINT demo_sessions_id_site_key UNIQUE (id, site_id);

ALTER TABLE game_rounds
  ADD CONSTRAINT game_rounds_member_site FOREIGN KEY (member_id, site_id) REFERENCES members (id, site_id),
  ADD CONSTRAINT game_rounds_demo_session_site FOREIGN KEY (demo_session_id, site_id)
    REFERENCES demo_sessions (id, site_id) ON DELETE CASCADE,
  DROP CONSTRAINT game_rounds_member_id_fkey,
  DROP CONSTRAINT game_rounds_demo_session_id_fkey,
  DROP CONSTRAINT game_rounds_site_id_fkey;
