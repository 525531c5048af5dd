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
  status        smallint NOT NULL DEFAULT 1,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- Host names a site answers on ("localhost", "br.localhost", "sorte.example").
CREATE TABLE site_domains (
  host     text PRIMARY KEY CHECK (host = lower(host)),
  site_id  bigint NOT NULL REFERENCES sites(id)
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
  profile_picture_id bigint,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz,
  UNIQUE (site_id, username_lower),
  UNIQUE (site_id, invite_code)
);
