-- Back office, game catalogue (issue 15): an operator edits a game's category and tags for their own
-- site only. `site_games` already overrides `enabled` and `position` per site; these two columns
-- override the catalogue's category and tags the same way (NULL: the catalogue's value).
ALTER TABLE site_games
  ADD COLUMN category text CHECK (category IS NULL OR category IN ('slots', 'live_casino', 'arcade',
    'crash', 'fish', 'bingo', 'card', 'lottery', 'sports', 'video_game')),
  ADD COLUMN tags text[] CHECK (tags IS NULL OR tags <@ ARRAY['new', 'popular', 'hot']::text[]);
