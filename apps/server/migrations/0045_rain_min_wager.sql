-- Chat rain eligibility (anti-farming): besides chatting in the window before the rain, a player
-- must have wagered at least rain_min_wager_minor in the rain_wager_days days before it (stakes as
-- counted in member_turnover). Accounts opened only to chat for the rain get nothing. Existing
-- sites start with the profiles' values (R$ 10,00 in 7 days); operators change them.
ALTER TABLE site_community
  ADD COLUMN rain_min_wager_minor bigint NOT NULL DEFAULT 1000
    CHECK (rain_min_wager_minor >= 0 AND rain_min_wager_minor <= 9999999999999),
  ADD COLUMN rain_wager_days integer NOT NULL DEFAULT 7 CHECK (rain_wager_days BETWEEN 1 AND 90);
