-- In-play risk controls of the sportsbook.
--
-- A goal in a live match suspends the match's open markets at once: `suspended_until` holds them
-- suspended until the window ends or the market is repriced (new odds) or reopened by an operator,
-- whichever comes first. The market's own `status` stays 'open': the effective status is computed
-- where markets are read, so nothing has to wake up to reopen them.
ALTER TABLE sports_markets ADD COLUMN suspended_until timestamptz;

-- Each site's in-play settings; a site without a row uses its jurisdiction profile's defaults.
--   in_play_delay_ms          a bet with a live leg is accepted only after this delay, at the
--                             prices and market states of that moment (odds-change policy applies)
--   score_suspension_seconds  how long a goal suspends the match's markets (0: not at all)
CREATE TABLE sports_settings (
  site_id                  bigint PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  in_play_delay_ms         integer NOT NULL CHECK (in_play_delay_ms BETWEEN 0 AND 30000),
  score_suspension_seconds integer NOT NULL CHECK (score_suspension_seconds BETWEEN 0 AND 600),
  updated_at               timestamptz NOT NULL DEFAULT now()
);
