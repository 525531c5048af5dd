-- Information centre (issue 12, ADR 016): personal notifications, site announcements and the
-- community settings of a site (chat, rain) as data.
--
-- member_notifications: one notice to one member (deposit paid, withdrawal reviewed / paid /
--   rejected, login from a new device, level up, reward granted, commission, rain). The text is not
--   stored: `kind` + `params` are translated when read, in the reader's language. `dedupe_key` makes
--   a flow that runs twice (a webhook retried) notify once.
-- site_announcements: a site's notices to everybody, per language (title and body keyed by language
--   code, the site's default language used for a missing one), shown between published_at and
--   expires_at.
-- site_community: per site, created from the jurisdiction profile the first time it is read
--   (information.profiles.ts): the support chat entry, chat on/off and its limits, the rain on/off,
--   every how many minutes, its pot and the posting window that makes a player eligible.

CREATE TABLE member_notifications (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint NOT NULL REFERENCES members(id),
  kind        text NOT NULL CHECK (kind ~ '^[a-z_]{2,40}$'),
  params      jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (length(params::text) <= 2000),
  dedupe_key  text CHECK (char_length(dedupe_key) <= 160),
  read_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT member_notifications_once UNIQUE (member_id, dedupe_key)
);
CREATE INDEX member_notifications_member ON member_notifications (member_id, id DESC);
CREATE INDEX member_notifications_unread ON member_notifications (member_id) WHERE read_at IS NULL;

CREATE TABLE site_announcements (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id       bigint NOT NULL REFERENCES sites(id),
  code          text NOT NULL CHECK (code ~ '^[a-z0-9_]{2,40}$'),
  title         jsonb NOT NULL CHECK (length(title::text) <= 4000),
  body          jsonb NOT NULL CHECK (length(body::text) <= 40000),
  position      integer NOT NULL DEFAULT 0,
  published_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,
  UNIQUE (site_id, code)
);
CREATE INDEX site_announcements_site ON site_announcements (site_id, position, published_at DESC);

CREATE TABLE site_community (
  site_id                  bigint PRIMARY KEY REFERENCES sites(id),
  support_chat_url         text CHECK (char_length(support_chat_url) <= 300),
  chat_enabled             boolean NOT NULL,
  chat_max_chars           integer NOT NULL CHECK (chat_max_chars BETWEEN 1 AND 500),
  chat_rate_messages       integer NOT NULL CHECK (chat_rate_messages BETWEEN 1 AND 100),
  chat_rate_seconds        integer NOT NULL CHECK (chat_rate_seconds BETWEEN 1 AND 3600),
  chat_history             integer NOT NULL CHECK (chat_history BETWEEN 0 AND 200),
  rain_enabled             boolean NOT NULL,
  -- Why the rain is off here (a message key), e.g. a random or free prize draw needs its own
  -- authorisation on br (Lei 5.768/71).
  rain_off_reason          text CHECK (char_length(rain_off_reason) <= 120),
  rain_every_minutes       integer NOT NULL CHECK (rain_every_minutes BETWEEN 5 AND 10080),
  rain_pot_minor           bigint NOT NULL CHECK (rain_pot_minor > 0 AND rain_pot_minor <= 9999999999999),
  rain_window_minutes      integer NOT NULL CHECK (rain_window_minutes BETWEEN 1 AND 1440),
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT site_community_rain_reason CHECK (rain_enabled OR rain_off_reason IS NOT NULL)
);
