-- Games: the catalogue (providers, games, per-site enablement and order), favourites, recently
-- played, guests' fun-money demo sessions, provably-fair seed pairs, and the round record of every
-- in-house bet. Money moves only through the wallet (wallet_transfers); a round keeps the ids of
-- the transfers that settled it.

CREATE TABLE game_providers (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code        text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{2,32}$'),
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  is_inhouse  boolean NOT NULL DEFAULT false,
  position    integer NOT NULL DEFAULT 0
);

CREATE TABLE games (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code           text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{2,64}$'),
  name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  provider_id    bigint NOT NULL REFERENCES game_providers(id),
  category       text NOT NULL CHECK (category IN ('slots', 'live_casino', 'arcade', 'crash', 'fish',
                   'bingo', 'card', 'lottery', 'sports', 'video_game')),
  tags           text[] NOT NULL DEFAULT ARRAY[]::text[]
                   CHECK (tags <@ ARRAY['new', 'popular', 'hot']::text[]),
  -- Theoretical RTP in basis points of a percent (9900 = 99.00 %); a range when options differ.
  rtp_min_bp     integer NOT NULL CHECK (rtp_min_bp BETWEEN 5000 AND 10000),
  rtp_max_bp     integer NOT NULL CHECK (rtp_max_bp BETWEEN rtp_min_bp AND 10000),
  min_bet_minor  bigint NOT NULL CHECK (min_bet_minor > 0),
  max_bet_minor  bigint NOT NULL CHECK (max_bet_minor >= min_bet_minor),
  max_win_minor  bigint NOT NULL CHECK (max_win_minor > 0),
  -- Generated artwork (served by /media/games/<code>.svg) unless a provider supplies its own.
  thumbnail      text,
  is_inhouse     boolean NOT NULL DEFAULT false,
  enabled        boolean NOT NULL DEFAULT true,
  -- Default lobby order (ascending) and a popularity score (descending) for the "popular" section.
  position       integer NOT NULL DEFAULT 0,
  popularity     integer NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_category ON games (category, position);
CREATE INDEX games_provider ON games (provider_id, position);

-- Per-site overrides: a game is shown on every site unless a row here disables it; `position`
-- replaces the default order on that site.
CREATE TABLE site_games (
  site_id   bigint NOT NULL REFERENCES sites(id),
  game_id   bigint NOT NULL REFERENCES games(id),
  enabled   boolean NOT NULL DEFAULT true,
  position  integer,
  PRIMARY KEY (site_id, game_id)
);

CREATE TABLE member_favorite_games (
  member_id   bigint NOT NULL REFERENCES members(id),
  game_id     bigint NOT NULL REFERENCES games(id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, game_id)
);

CREATE TABLE member_recent_games (
  member_id  bigint NOT NULL REFERENCES members(id),
  game_id    bigint NOT NULL REFERENCES games(id),
  played_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, game_id)
);
CREATE INDEX member_recent_games_latest ON member_recent_games (member_id, played_at DESC);

-- A guest's fun money: no wallet, no real money. The bearer token is stored only hashed.
CREATE TABLE demo_sessions (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id        bigint NOT NULL REFERENCES sites(id),
  token_hash     text NOT NULL UNIQUE,
  balance_minor  bigint NOT NULL CHECK (balance_minor >= 0),
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);

-- Provably-fair seed pairs. The active pair's server seed never leaves the server; rotation sets
-- revealed_at, after which the seed is shown so every bet under it can be verified.
CREATE TABLE fairness_seed_pairs (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id           bigint NOT NULL REFERENCES sites(id),
  member_id         bigint REFERENCES members(id),
  demo_session_id   bigint REFERENCES demo_sessions(id) ON DELETE CASCADE,
  server_seed       text NOT NULL CHECK (server_seed ~ '^[0-9a-f]{64}$'),
  server_seed_hash  text NOT NULL CHECK (server_seed_hash ~ '^[0-9a-f]{64}$'),
  client_seed       text NOT NULL CHECK (char_length(client_seed) BETWEEN 1 AND 64),
  next_nonce        bigint NOT NULL DEFAULT 0 CHECK (next_nonce >= 0),
  created_at        timestamptz NOT NULL DEFAULT now(),
  revealed_at       timestamptz,
  CONSTRAINT fairness_seed_pairs_one_owner CHECK (num_nonnulls(member_id, demo_session_id) = 1)
);
CREATE UNIQUE INDEX fairness_seed_pairs_active_member ON fairness_seed_pairs (member_id)
  WHERE revealed_at IS NULL AND member_id IS NOT NULL;
CREATE UNIQUE INDEX fairness_seed_pairs_active_demo ON fairness_seed_pairs (demo_session_id)
  WHERE revealed_at IS NULL AND demo_session_id IS NOT NULL;
CREATE INDEX fairness_seed_pairs_history ON fairness_seed_pairs (member_id, id DESC)
  WHERE revealed_at IS NOT NULL;

-- Every in-house round (game recall): who, what, stake, outcome, payout, seeds and nonce, and the
-- wallet transfers that moved the money (NULL in demo mode). A stepped game (mines, hi-lo) is
-- 'active' between its start and its settlement; settlement happens exactly once.
CREATE TABLE game_rounds (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id           bigint NOT NULL REFERENCES sites(id),
  member_id         bigint REFERENCES members(id),
  demo_session_id   bigint REFERENCES demo_sessions(id) ON DELETE CASCADE,
  game_id           bigint NOT NULL REFERENCES games(id),
  game_code         text NOT NULL,
  status            text NOT NULL CHECK (status IN ('active', 'settled')),
  idempotency_key   text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 8 AND 64),
  request_hash      text NOT NULL,
  stake_minor       bigint NOT NULL CHECK (stake_minor > 0),
  payout_minor      bigint NOT NULL DEFAULT 0 CHECK (payout_minor >= 0),
  -- The exact payout multiplier as a fraction, and a display string (4 decimals, floored).
  multiplier_num    numeric NOT NULL DEFAULT 0,
  multiplier_den    numeric NOT NULL DEFAULT 1 CHECK (multiplier_den > 0),
  multiplier        text NOT NULL DEFAULT '0.0000',
  params            jsonb NOT NULL,
  -- Steps so far of a stepped game (tiles opened, calls made).
  steps             jsonb NOT NULL DEFAULT '[]'::jsonb,
  outcome           jsonb,
  seed_pair_id      bigint NOT NULL REFERENCES fairness_seed_pairs(id),
  nonce             bigint NOT NULL CHECK (nonce >= 0),
  bet_transfer_id   bigint,
  win_transfer_id   bigint,
  created_at        timestamptz NOT NULL DEFAULT now(),
  settled_at        timestamptz,
  CONSTRAINT game_rounds_one_owner CHECK (num_nonnulls(member_id, demo_session_id) = 1),
  CONSTRAINT game_rounds_settled CHECK ((status = 'settled') = (settled_at IS NOT NULL)),
  CONSTRAINT game_rounds_nonce UNIQUE (seed_pair_id, nonce)
);
CREATE UNIQUE INDEX game_rounds_member_key ON game_rounds (member_id, idempotency_key)
  WHERE member_id IS NOT NULL;
CREATE UNIQUE INDEX game_rounds_demo_key ON game_rounds (demo_session_id, idempotency_key)
  WHERE demo_session_id IS NOT NULL;
-- At most one unfinished stepped round per player and game.
CREATE UNIQUE INDEX game_rounds_member_active ON game_rounds (member_id, game_code)
  WHERE status = 'active' AND member_id IS NOT NULL;
CREATE UNIQUE INDEX game_rounds_demo_active ON game_rounds (demo_session_id, game_code)
  WHERE status = 'active' AND demo_session_id IS NOT NULL;
CREATE INDEX game_rounds_member_record ON game_rounds (member_id, id DESC) WHERE member_id IS NOT NULL;
CREATE INDEX game_rounds_member_time ON game_rounds (member_id, created_at) WHERE member_id IS NOT NULL;
CREATE INDEX game_rounds_seed_pair ON game_rounds (seed_pair_id) WHERE status = 'active';

-- The catalogue: Sorte's in-house originals (limits and RTP as in @sorte/fairness GAME_RULES; a
-- test keeps them equal) and a demo third-party catalogue across every category (our own names).
INSERT INTO game_providers (code, name, is_inhouse, position) VALUES
  ('sorte', 'Sorte Originals', true, 10),
  ('aurora', 'Aurora Gaming', false, 20),
  ('pixelforge', 'Pixel Forge', false, 30),
  ('lumenlive', 'Lumen Live', false, 40),
  ('tidewater', 'Tidewater Studios', false, 50),
  ('redline', 'Redline Arcade', false, 60),
  ('jadelotus', 'Jade Lotus', false, 70),
  ('northstar', 'Northstar Sports', false, 80);

INSERT INTO games (code, name, provider_id, category, tags, rtp_min_bp, rtp_max_bp, min_bet_minor, max_bet_minor, max_win_minor, is_inhouse, position, popularity)
SELECT v.code, v.name, p.id, v.category, v.tags, v.rtp_min_bp, v.rtp_max_bp, v.min_bet_minor, v.max_bet_minor, v.max_win_minor, v.is_inhouse, v.position, v.popularity
FROM (VALUES
  ('crash', 'Crash', 'sorte', 'crash', ARRAY['hot', 'popular']::text[], 9900, 9900, 10, 500000, 100000000, true, 10, 990),
  ('dice', 'Dice', 'sorte', 'arcade', ARRAY['popular']::text[], 9900, 9900, 10, 500000, 50000000, true, 20, 980),
  ('limbo', 'Limbo', 'sorte', 'arcade', ARRAY['new']::text[], 9900, 9900, 10, 500000, 50000000, true, 30, 970),
  ('mines', 'Mines', 'sorte', 'arcade', ARRAY['hot']::text[], 9900, 9900, 10, 500000, 50000000, true, 40, 960),
  ('plinko', 'Plinko', 'sorte', 'arcade', ARRAY['popular', 'hot']::text[], 9847, 9893, 10, 100000, 100000000, true, 50, 950),
  ('keno', 'Keno', 'sorte', 'lottery', ARRAY[]::text[], 9735, 9763, 10, 10000, 100000000, true, 60, 940),
  ('roulette', 'European Roulette', 'sorte', 'card', ARRAY['popular']::text[], 9730, 9730, 10, 500000, 18000000, true, 70, 930),
  ('slot', 'Fortuna', 'sorte', 'slots', ARRAY['new', 'hot']::text[], 9716, 9716, 20, 50000, 100000000, true, 80, 920),
  ('hilo', 'Hi-Lo', 'sorte', 'card', ARRAY['new']::text[], 9900, 9900, 10, 500000, 50000000, true, 90, 910),
  ('bingo', 'Bingo 75', 'sorte', 'bingo', ARRAY[]::text[], 9756, 9756, 10, 100000, 100000000, true, 100, 900),
  ('aurora-golden-macaw', 'Golden Macaw', 'aurora', 'slots', ARRAY['popular']::text[], 9537, 9537, 20, 100000, 100000000, false, 110, 497),
  ('pixelforge-carnival-reels', 'Carnival Reels', 'pixelforge', 'slots', ARRAY['hot']::text[], 9574, 9574, 20, 200000, 200000000, false, 120, 494),
  ('jadelotus-amazon-treasure', 'Amazon Treasure', 'jadelotus', 'slots', ARRAY[]::text[], 9611, 9611, 20, 500000, 500000000, false, 130, 491),
  ('tidewater-lucky-lanterns', 'Lucky Lanterns', 'tidewater', 'slots', ARRAY[]::text[], 9648, 9648, 20, 50000, 50000000, false, 140, 488),
  ('aurora-samba-fruits', 'Samba Fruits', 'aurora', 'slots', ARRAY['hot']::text[], 9685, 9685, 20, 100000, 100000000, false, 150, 485),
  ('pixelforge-dragon-pearl', 'Dragon Pearl', 'pixelforge', 'slots', ARRAY[]::text[], 9722, 9722, 20, 200000, 200000000, false, 160, 482),
  ('jadelotus-pharaoh-sun', 'Pharaoh Sun', 'jadelotus', 'slots', ARRAY[]::text[], 9509, 9509, 20, 500000, 500000000, false, 170, 479),
  ('tidewater-neon-cherries', 'Neon Cherries', 'tidewater', 'slots', ARRAY['hot']::text[], 9546, 9546, 20, 50000, 50000000, false, 180, 476),
  ('aurora-wild-capybara', 'Wild Capybara', 'aurora', 'slots', ARRAY[]::text[], 9583, 9583, 20, 100000, 100000000, false, 190, 473),
  ('pixelforge-coffee-fortune', 'Coffee Fortune', 'pixelforge', 'slots', ARRAY[]::text[], 9620, 9620, 20, 200000, 200000000, false, 200, 470),
  ('jadelotus-moonlit-koi', 'Moonlit Koi', 'jadelotus', 'slots', ARRAY['hot']::text[], 9657, 9657, 20, 500000, 500000000, false, 210, 467),
  ('tidewater-viking-gold', 'Viking Gold', 'tidewater', 'slots', ARRAY['new']::text[], 9694, 9694, 20, 50000, 50000000, false, 220, 464),
  ('lumenlive-live-roulette-rio', 'Live Roulette Rio', 'lumenlive', 'live_casino', ARRAY['popular']::text[], 9731, 9731, 20, 100000, 100000000, false, 230, 461),
  ('lumenlive-speed-baccarat', 'Speed Baccarat', 'lumenlive', 'live_casino', ARRAY['hot']::text[], 9518, 9518, 20, 200000, 200000000, false, 240, 458),
  ('lumenlive-thunder-sic-bo', 'Thunder Sic Bo', 'lumenlive', 'live_casino', ARRAY[]::text[], 9555, 9555, 20, 500000, 500000000, false, 250, 455),
  ('lumenlive-live-blackjack-vip', 'Live Blackjack VIP', 'lumenlive', 'live_casino', ARRAY[]::text[], 9592, 9592, 20, 50000, 50000000, false, 260, 452),
  ('lumenlive-dragon-tiger-live', 'Dragon Tiger Live', 'lumenlive', 'live_casino', ARRAY['hot']::text[], 9629, 9629, 20, 100000, 100000000, false, 270, 449),
  ('lumenlive-fortune-wheel-show', 'Fortune Wheel Show', 'lumenlive', 'live_casino', ARRAY['new']::text[], 9666, 9666, 20, 200000, 200000000, false, 280, 446),
  ('redline-tower-climb', 'Tower Climb', 'redline', 'arcade', ARRAY['popular']::text[], 9703, 9703, 20, 500000, 500000000, false, 290, 443),
  ('pixelforge-goal-rush', 'Goal Rush', 'pixelforge', 'arcade', ARRAY['hot']::text[], 9740, 9740, 20, 50000, 50000000, false, 300, 440),
  ('redline-balloon-pop', 'Balloon Pop', 'redline', 'arcade', ARRAY[]::text[], 9527, 9527, 20, 100000, 100000000, false, 310, 437),
  ('pixelforge-chicken-cross', 'Chicken Cross', 'pixelforge', 'arcade', ARRAY[]::text[], 9564, 9564, 20, 200000, 200000000, false, 320, 434),
  ('redline-penalty-kick', 'Penalty Kick', 'redline', 'arcade', ARRAY['hot']::text[], 9601, 9601, 20, 500000, 500000000, false, 330, 431),
  ('pixelforge-cube-drop', 'Cube Drop', 'pixelforge', 'arcade', ARRAY['new']::text[], 9638, 9638, 20, 50000, 50000000, false, 340, 428),
  ('redline-rocket-rio', 'Rocket Rio', 'redline', 'crash', ARRAY['popular']::text[], 9675, 9675, 20, 100000, 100000000, false, 350, 425),
  ('aurora-jet-lagoon', 'Jet Lagoon', 'aurora', 'crash', ARRAY['hot']::text[], 9712, 9712, 20, 200000, 200000000, false, 360, 422),
  ('redline-sky-pilot', 'Sky Pilot', 'redline', 'crash', ARRAY[]::text[], 9749, 9749, 20, 500000, 500000000, false, 370, 419),
  ('aurora-space-toucan', 'Space Toucan', 'aurora', 'crash', ARRAY[]::text[], 9536, 9536, 20, 50000, 50000000, false, 380, 416),
  ('redline-zeppelin-run', 'Zeppelin Run', 'redline', 'crash', ARRAY['new', 'hot']::text[], 9573, 9573, 20, 100000, 100000000, false, 390, 413),
  ('jadelotus-reef-emperor', 'Reef Emperor', 'jadelotus', 'fish', ARRAY['popular']::text[], 9610, 9610, 20, 200000, 200000000, false, 400, 410),
  ('tidewater-fishing-fiesta', 'Fishing Fiesta', 'tidewater', 'fish', ARRAY['hot']::text[], 9647, 9647, 20, 500000, 500000000, false, 410, 407),
  ('jadelotus-deep-sea-hunter', 'Deep Sea Hunter', 'jadelotus', 'fish', ARRAY[]::text[], 9684, 9684, 20, 50000, 50000000, false, 420, 404),
  ('tidewater-golden-toad', 'Golden Toad', 'tidewater', 'fish', ARRAY[]::text[], 9721, 9721, 20, 100000, 100000000, false, 430, 401),
  ('jadelotus-mermaid-catch', 'Mermaid Catch', 'jadelotus', 'fish', ARRAY['new', 'hot']::text[], 9508, 9508, 20, 200000, 200000000, false, 440, 398),
  ('tidewater-bingo-beach', 'Bingo Beach', 'tidewater', 'bingo', ARRAY['popular']::text[], 9545, 9545, 20, 500000, 500000000, false, 450, 395),
  ('aurora-festa-bingo', 'Festa Bingo', 'aurora', 'bingo', ARRAY['hot']::text[], 9582, 9582, 20, 50000, 50000000, false, 460, 392),
  ('tidewater-bingo-90-classic', 'Bingo 90 Classic', 'tidewater', 'bingo', ARRAY[]::text[], 9619, 9619, 20, 100000, 100000000, false, 470, 389),
  ('aurora-samba-bingo', 'Samba Bingo', 'aurora', 'bingo', ARRAY['new']::text[], 9656, 9656, 20, 200000, 200000000, false, 480, 386),
  ('lumenlive-teen-patti-gold', 'Teen Patti Gold', 'lumenlive', 'card', ARRAY['popular']::text[], 9693, 9693, 20, 500000, 500000000, false, 490, 383),
  ('jadelotus-andar-bahar', 'Andar Bahar', 'jadelotus', 'card', ARRAY['hot']::text[], 9730, 9730, 20, 50000, 50000000, false, 500, 380),
  ('lumenlive-texas-poker', 'Texas Poker', 'lumenlive', 'card', ARRAY[]::text[], 9517, 9517, 20, 100000, 100000000, false, 510, 377),
  ('jadelotus-truco-online', 'Truco Online', 'jadelotus', 'card', ARRAY[]::text[], 9554, 9554, 20, 200000, 200000000, false, 520, 374),
  ('lumenlive-baccarat-squeeze', 'Baccarat Squeeze', 'lumenlive', 'card', ARRAY['hot']::text[], 9591, 9591, 20, 500000, 500000000, false, 530, 371),
  ('jadelotus-blackjack-classic', 'Blackjack Classic', 'jadelotus', 'card', ARRAY['new']::text[], 9628, 9628, 20, 50000, 50000000, false, 540, 368),
  ('aurora-lucky-balls', 'Lucky Balls', 'aurora', 'lottery', ARRAY['popular']::text[], 9665, 9665, 20, 100000, 100000000, false, 550, 365),
  ('jadelotus-mega-draw', 'Mega Draw', 'jadelotus', 'lottery', ARRAY['hot']::text[], 9702, 9702, 20, 200000, 200000000, false, 560, 362),
  ('aurora-scratch-carnival', 'Scratch Carnival', 'aurora', 'lottery', ARRAY[]::text[], 9739, 9739, 20, 500000, 500000000, false, 570, 359),
  ('jadelotus-fast-keno-80', 'Fast Keno 80', 'jadelotus', 'lottery', ARRAY['new']::text[], 9526, 9526, 20, 50000, 50000000, false, 580, 356),
  ('northstar-virtual-football', 'Virtual Football', 'northstar', 'sports', ARRAY['popular']::text[], 9563, 9563, 20, 100000, 100000000, false, 590, 353),
  ('northstar-horse-derby', 'Horse Derby', 'northstar', 'sports', ARRAY['hot']::text[], 9600, 9600, 20, 200000, 200000000, false, 600, 350),
  ('northstar-greyhound-sprint', 'Greyhound Sprint', 'northstar', 'sports', ARRAY[]::text[], 9637, 9637, 20, 500000, 500000000, false, 610, 347),
  ('northstar-basket-shootout', 'Basket Shootout', 'northstar', 'sports', ARRAY[]::text[], 9674, 9674, 20, 50000, 50000000, false, 620, 344),
  ('northstar-virtual-tennis', 'Virtual Tennis', 'northstar', 'sports', ARRAY['new', 'hot']::text[], 9711, 9711, 20, 100000, 100000000, false, 630, 341),
  ('northstar-esports-arena', 'Esports Arena', 'northstar', 'video_game', ARRAY['popular']::text[], 9748, 9748, 20, 200000, 200000000, false, 640, 338),
  ('pixelforge-kart-racer', 'Kart Racer', 'pixelforge', 'video_game', ARRAY['hot']::text[], 9535, 9535, 20, 500000, 500000000, false, 650, 335),
  ('northstar-arena-brawler-cup', 'Arena Brawler Cup', 'northstar', 'video_game', ARRAY[]::text[], 9572, 9572, 20, 50000, 50000000, false, 660, 332),
  ('pixelforge-cyber-league', 'Cyber League', 'pixelforge', 'video_game', ARRAY['new']::text[], 9609, 9609, 20, 100000, 100000000, false, 670, 329)
) AS v(code, name, provider, category, tags, rtp_min_bp, rtp_max_bp, min_bet_minor, max_bet_minor, max_win_minor, is_inhouse, position, popularity)
JOIN game_providers p ON p.code = v.provider;
UPDATE games SET thumbnail = '/media/games/' || code || '.svg';
