-- Foundation: sites, members (players), sessions, captchas, login throttling, profile pictures.
-- Every player-owned row carries site_id: users and all later data are scoped to their site.

CREATE TABLE sites (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code          text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{2,32}$'),
  name          text NOT NULL,
  jurisdiction  text NOT NULL CHECK (jurisdiction IN ('intl', 'br')),
  default_lang  text NOT NULL DEFAULT 'en',
  languages     text[] NOT NULL,
  logo          text NOT NULL,
  favicon       text NOT NULL,
  theme         jsonb NOT NULL DEFAULT '{}'::jsonb,
  background_video text,
  telegram_link text,
  min_age       integer NOT NULL DEFAULT 18 CHECK (min_age >= 18),
  -- Game category codes shown as tabs on the home page, in order.
  categories    text[] NOT NULL DEFAULT '{}',
  -- Players log out after this much inactivity (br: 30 minutes by regulation).
  session_idle_minutes integer NOT NULL DEFAULT 1440 CHECK (session_idle_minutes BETWEEN 5 AND 43200),
  status        smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Host names a site answers on ("localhost", "br.localhost", "sorte.example").
CREATE TABLE site_domains (
  host     text PRIMARY KEY CHECK (host = lower(host)),
  site_id  bigint NOT NULL REFERENCES sites(id)
);

CREATE TABLE site_banners (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id   bigint NOT NULL REFERENCES sites(id),
  position  integer NOT NULL,
  image     text NOT NULL,
  -- Title per language code, e.g. {"en": "Welcome bonus", "pt": "Bônus de boas-vindas"}.
  title     jsonb NOT NULL,
  link      text,
  UNIQUE (site_id, position)
);

CREATE TABLE site_social_links (
  site_id   bigint NOT NULL REFERENCES sites(id),
  name      text NOT NULL CHECK (name ~ '^[a-z0-9_]{2,32}$'),
  url       text NOT NULL,
  position  integer NOT NULL,
  PRIMARY KEY (site_id, name)
);

-- Avatars a player can choose for the profile (shared by all sites).
CREATE TABLE profile_pictures (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  gender  text NOT NULL CHECK (gender IN ('male', 'female')),
  url     text NOT NULL UNIQUE,
  position integer NOT NULL
);

CREATE TABLE members (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint NOT NULL REFERENCES sites(id),
  username        text NOT NULL CHECK (char_length(username) BETWEEN 4 AND 20),
  -- Usernames are unique per site regardless of case.
  username_lower  text GENERATED ALWAYS AS (lower(username)) STORED,
  password_hash   text NOT NULL,
  qk_pwd_hash     text,
  realname        text NOT NULL,
  phone           text NOT NULL,
  email           text,
  nickname        text,
  gender          smallint NOT NULL DEFAULT 0 CHECK (gender IN (0, 1, 2)),
  invite_code     text NOT NULL,
  top_id          bigint REFERENCES members(id),
  agent_id        bigint REFERENCES members(id),
  lang            text NOT NULL DEFAULT 'en',
  register_ip     text,
  register_area   text,
  status          smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  is_demo         boolean NOT NULL DEFAULT false,
  level           integer NOT NULL DEFAULT 0,
  slot_level      integer NOT NULL DEFAULT 0,
  live_level      integer NOT NULL DEFAULT 0,
  score           integer NOT NULL DEFAULT 0,
  is_tips_on      smallint NOT NULL DEFAULT 1 CHECK (is_tips_on IN (0, 1)),
  is_in_on        smallint NOT NULL DEFAULT 0 CHECK (is_in_on IN (0, 1)),
  is_trans_on     smallint NOT NULL DEFAULT 0 CHECK (is_trans_on IN (0, 1)),
  profile_picture_id bigint REFERENCES profile_pictures(id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz,
  UNIQUE (site_id, username_lower),
  UNIQUE (site_id, invite_code)
);

CREATE INDEX members_top_id_idx ON members (top_id) WHERE top_id IS NOT NULL;
CREATE INDEX members_agent_id_idx ON members (agent_id) WHERE agent_id IS NOT NULL;

-- Player sessions. Only the SHA-256 of the bearer token is stored. A session is usable while
-- ended_at IS NULL and expires_at > now(); every use slides expires_at forward (capped by
-- absolute_expires_at). end_reason tells the next call why it was refused.
CREATE TABLE member_sessions (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id             bigint NOT NULL REFERENCES sites(id),
  member_id           bigint NOT NULL REFERENCES members(id),
  token_hash          text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at          timestamptz NOT NULL DEFAULT now(),
  last_seen_at        timestamptz NOT NULL DEFAULT now(),
  expires_at          timestamptz NOT NULL,
  absolute_expires_at timestamptz NOT NULL,
  ended_at            timestamptz,
  end_reason          text CHECK (end_reason IN ('logout', 'force_offline')),
  ip                  text,
  user_agent          text CHECK (char_length(user_agent) <= 512),
  CHECK ((ended_at IS NULL) = (end_reason IS NULL))
);
CREATE INDEX member_sessions_member_active_idx ON member_sessions (member_id) WHERE ended_at IS NULL;

-- Image challenges: only a hash of the answer is kept; a challenge is consumed by its first use.
CREATE TABLE captchas (
  id           text PRIMARY KEY CHECK (id ~ '^[0-9a-f-]{36}$'),
  site_id      bigint NOT NULL REFERENCES sites(id),
  answer_hash  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz
);
CREATE INDEX captchas_expires_at_idx ON captchas (expires_at);

-- Failed logins, per account name and per client address, kept in the database so every server
-- process sees the same counts. Rows older than the lock window are deleted as new ones arrive.
CREATE TABLE login_failures (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id    bigint NOT NULL REFERENCES sites(id),
  scope      text NOT NULL CHECK (scope IN ('account', 'ip', 'operator')),
  key        text NOT NULL CHECK (char_length(key) <= 128),
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_lookup_idx ON login_failures (site_id, scope, key, failed_at);

-- Back-office staff of one site. Separate from players: their tokens never open player routes.
CREATE TABLE operators (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id        bigint NOT NULL REFERENCES sites(id),
  username       text NOT NULL CHECK (char_length(username) BETWEEN 3 AND 40),
  username_lower text GENERATED ALWAYS AS (lower(username)) STORED,
  password_hash  text NOT NULL,
  role           text NOT NULL DEFAULT 'support' CHECK (role IN ('admin', 'support')),
  status         smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, username_lower)
);

CREATE TABLE operator_sessions (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL REFERENCES sites(id),
  operator_id  bigint NOT NULL REFERENCES operators(id),
  token_hash   text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  ended_at     timestamptz
);

-- Operator actions on players, for the audit trail (who forced whom offline, when).
CREATE TABLE operator_actions (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL REFERENCES sites(id),
  operator_id  bigint NOT NULL REFERENCES operators(id),
  action       text NOT NULL,
  member_id    bigint REFERENCES members(id),
  details      jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at   timestamptz NOT NULL DEFAULT now()
);
