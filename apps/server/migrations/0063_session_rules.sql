-- Session rules per jurisdiction profile (issue 36 §3, ADR 037): how long a member's session may sit
-- idle before the member must authenticate again, as data with the article it encodes. The code
-- reads these rows; it never asks "is this br".
--
-- reauth_idle_minutes: NULL → the profile sets no ceiling and the site's own session_idle_minutes
-- applies (and a remembered device may resume the session); a value → the session ends after that
-- many idle minutes at most (the lower of it and the site's own), and only the password resumes it.
ALTER TABLE jurisdiction_profiles
  ADD COLUMN reauth_idle_minutes integer CHECK (reauth_idle_minutes BETWEEN 5 AND 43200),
  ADD COLUMN session_rules_legal_basis text NOT NULL DEFAULT 'Operator policy (no jurisdiction rule)'
    CHECK (char_length(session_rules_legal_basis) BETWEEN 1 AND 500);

UPDATE jurisdiction_profiles
   SET reauth_idle_minutes = 30,
       session_rules_legal_basis = 'Portaria SPA/MF 722/2024 art. 14 (the bettor authenticates again after 30 minutes without activity)'
 WHERE jurisdiction = 'br';
UPDATE jurisdiction_profiles
   SET reauth_idle_minutes = NULL,
       session_rules_legal_basis = 'Operator policy (no jurisdiction rule): the site''s own idle expiry, a remembered device resumes'
 WHERE jurisdiction = 'intl';

-- The profile's ceiling as it stood when the session opened, so sliding and checking a session
-- never reads the profile again (no extra read or write per request).
ALTER TABLE member_sessions
  ADD COLUMN reauth_idle_minutes integer CHECK (reauth_idle_minutes BETWEEN 5 AND 43200);
