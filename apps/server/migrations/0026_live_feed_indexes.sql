-- The live feed beside the in-house games (issue 14) reads the latest real-money wins of a site
-- and the bets of the current crash round, on every page view: partial indexes keep those reads to
-- the rows they list.
CREATE INDEX game_rounds_site_wins ON game_rounds (site_id, settled_at DESC)
  WHERE member_id IS NOT NULL AND status = 'settled' AND payout_minor > stake_minor;
CREATE INDEX crash_bets_site_cashed ON crash_bets (site_id, settled_at DESC)
  WHERE member_id IS NOT NULL AND status = 'cashed';
CREATE INDEX crash_bets_round_site ON crash_bets (round_id, site_id) WHERE member_id IS NOT NULL;
