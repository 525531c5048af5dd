-- Chat and rain (issue 12, ADR 016): one room per site, operator moderation, and the rain that
-- shares a pot equally among recent posters, paid once per rain through the wallet.
--
-- chat_messages: text only, stored as typed (escaped by the clients that show it), soft-deleted by
--   operators (a deleted message leaves the history and every open panel).
-- chat_mutes: a member may not post until `until` (NULL: until an operator lifts it); a muted member
--   is not eligible for a rain.
-- chat_rains: one per (site, slot): the slot is the instant the rain falls. Written with its payouts
--   (the eligible members and their equal share, frozen) in one transaction; each payout is then paid
--   in its own transaction under the key chat-rain:<rain>:<member>, so a rain stopped half way is
--   finished by the next run and pays nobody twice. The centavos the split leaves over stay in the
--   promotions account and are recorded in remainder_minor.

CREATE TABLE chat_messages (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint NOT NULL REFERENCES members(id),
  author      text NOT NULL CHECK (char_length(author) BETWEEN 1 AND 40),
  text        text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
  created_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  deleted_by  bigint REFERENCES operators(id)
);
CREATE INDEX chat_messages_site ON chat_messages (site_id, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX chat_messages_member ON chat_messages (member_id, created_at DESC);

CREATE TABLE chat_mutes (
  site_id     bigint NOT NULL REFERENCES sites(id),
  member_id   bigint NOT NULL REFERENCES members(id),
  until       timestamptz,
  reason      text NOT NULL DEFAULT '' CHECK (char_length(reason) <= 200),
  muted_by    bigint REFERENCES operators(id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, member_id)
);

CREATE TABLE chat_rains (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id          bigint NOT NULL REFERENCES sites(id),
  slot             timestamptz NOT NULL,
  pot_minor        bigint NOT NULL CHECK (pot_minor > 0),
  share_minor      bigint NOT NULL CHECK (share_minor >= 0),
  remainder_minor  bigint NOT NULL CHECK (remainder_minor >= 0),
  eligible         integer NOT NULL CHECK (eligible >= 0),
  status           text NOT NULL DEFAULT 'paying' CHECK (status IN ('paying', 'done')),
  created_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz,
  CONSTRAINT chat_rains_done CHECK ((status = 'done') = (finished_at IS NOT NULL)),
  CONSTRAINT chat_rains_split CHECK (share_minor * eligible + remainder_minor = pot_minor OR eligible = 0),
  CONSTRAINT chat_rains_once UNIQUE (site_id, slot)
);
CREATE INDEX chat_rains_paying ON chat_rains (site_id) WHERE status = 'paying';

CREATE TABLE chat_rain_payouts (
  rain_id       bigint NOT NULL REFERENCES chat_rains(id),
  member_id     bigint NOT NULL REFERENCES members(id),
  amount_minor  bigint NOT NULL CHECK (amount_minor > 0),
  transfer_id   bigint REFERENCES wallet_transfers(id),
  paid_at       timestamptz,
  PRIMARY KEY (rain_id, member_id),
  CONSTRAINT chat_rain_payouts_paid CHECK ((paid_at IS NULL) = (transfer_id IS NULL))
);
CREATE INDEX chat_rain_payouts_member ON chat_rain_payouts (member_id);

-- The rain is a new reason money moves: a transfer kind of its own (the contract's TRANSACTION_KINDS).
ALTER TABLE wallet_transfers DROP CONSTRAINT wallet_transfers_kind;
ALTER TABLE wallet_transfers ADD CONSTRAINT wallet_transfers_kind CHECK (kind IN (
  'deposit', 'withdrawal_hold', 'withdrawal_release', 'withdrawal_payout', 'withdrawal_fee',
  'bet', 'win', 'refund', 'bonus_grant', 'bonus_convert', 'bonus_forfeit', 'rebate', 'commission',
  'correction', 'chat_rain'));
