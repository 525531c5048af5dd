-- A member's sessions, ended ones included: the session-time limit sums the minutes of the
-- member's sessions in the limit's period at every login and session clock (mandatory on br). The
-- only index by member covered open sessions (member_sessions_member_active_idx), so the sum read
-- every session of the platform (a sequential scan: 29 ms at 300,000 sessions, growing with each
-- login). The back office's last login per player and the reality check read it too.
CREATE INDEX member_sessions_member ON member_sessions (member_id, created_at);
