-- The demo catalogue's third-party titles play on the built-in demo aggregator's engines
-- (apps/game-aggregator, ADR 007), so the catalogue shows the return of what is actually played:
-- its 5×3, 10-line slot (95.94 %, exact) for every category but live casino and card, and punto
-- banco for those (tie 85.88 % … banker 98.94 %). Titles of a real aggregator carry their own RTP.
UPDATE games SET rtp_min_bp = 9594, rtp_max_bp = 9594
  WHERE NOT is_inhouse AND category NOT IN ('live_casino', 'card');
UPDATE games SET rtp_min_bp = 8588, rtp_max_bp = 9894
  WHERE NOT is_inhouse AND category IN ('live_casino', 'card');
