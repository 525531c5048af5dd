-- Money orders: PIX deposits (recharges) and withdrawals with review, the payment catalogue that
-- bounds them, the withdrawal-password lockout, and the member's CPF.
-- Money moves only through the wallet (0002); an order row and its transfer commit together, and
-- each order keeps the ids of its transfers so reconcile can match orders to the ledger.

-- A player's CPF (11 digits). Set by the bank-card / KYC flow; a br deposit is credited only when
-- the payer's CPF equals it, and a br withdrawal goes only to a PIX key in this CPF.
ALTER TABLE members ADD COLUMN cpf text CHECK (cpf IS NULL OR cpf ~ '^[0-9]{11}$');

-- Payment channels a site offers. Rows with site_id NULL are the defaults for every site; a site
-- with rows of its own sees only those. Bounds and fees are server data (spec §5).
CREATE TABLE payment_channels (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint REFERENCES sites(id),
  method          text NOT NULL CHECK (method ~ '^[a-z0-9_]{2,32}$'),
  method_name     text NOT NULL CHECK (char_length(method_name) BETWEEN 1 AND 64),
  code            text NOT NULL CHECK (code ~ '^[a-z0-9_]{2,32}$'),
  name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  min_minor       bigint NOT NULL CHECK (min_minor > 0),
  max_minor       bigint NOT NULL CHECK (max_minor >= min_minor AND max_minor <= 9999999999999),
  -- Fee the player pays on top, in basis points of the amount (0 = free).
  fee_bps         integer NOT NULL DEFAULT 0 CHECK (fee_bps BETWEEN 0 AND 10000),
  -- Recharge reward in basis points of the amount, credited to bonus with a 5x wagering rule.
  bonus_bps       integer NOT NULL DEFAULT 0 CHECK (bonus_bps BETWEEN 0 AND 10000),
  -- Quick-pick amounts shown as buttons, in centavos.
  presets_minor   bigint[] NOT NULL DEFAULT '{}',
  expires_seconds integer NOT NULL DEFAULT 900 CHECK (expires_seconds BETWEEN 60 AND 86400),
  position        integer NOT NULL DEFAULT 0,
  status          smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  UNIQUE NULLS NOT DISTINCT (site_id, code)
);

INSERT INTO payment_channels
  (site_id, method, method_name, code, name, min_minor, max_minor, fee_bps, bonus_bps, presets_minor, expires_seconds, position)
VALUES
  (NULL, 'pix', 'PIX', 'pix_express', 'PIX Express', 1000, 5000000, 0, 0,
   '{2000,5000,10000,20000,50000,100000}', 900, 1),
  (NULL, 'pix', 'PIX', 'pix_bonus', 'PIX +2%', 5000, 10000000, 0, 200,
   '{5000,10000,50000,100000,500000}', 900, 2);

-- Withdrawal rules per site (site_id NULL: the default). Fee = max(fee_min, amount * fee_bps).
CREATE TABLE withdrawal_settings (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint REFERENCES sites(id),
  min_minor       bigint NOT NULL CHECK (min_minor > 0),
  max_minor       bigint NOT NULL CHECK (max_minor >= min_minor AND max_minor <= 9999999999999),
  fee_bps         integer NOT NULL DEFAULT 0 CHECK (fee_bps BETWEEN 0 AND 10000),
  fee_min_minor   bigint NOT NULL DEFAULT 0 CHECK (fee_min_minor >= 0),
  daily_count_max integer NOT NULL DEFAULT 5 CHECK (daily_count_max BETWEEN 1 AND 1000),
  UNIQUE NULLS NOT DISTINCT (site_id),
  CHECK (fee_min_minor < min_minor)
);

INSERT INTO withdrawal_settings (site_id, min_minor, max_minor, fee_bps, fee_min_minor, daily_count_max)
VALUES (NULL, 2000, 5000000, 100, 200, 5);

CREATE TABLE deposit_orders (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint NOT NULL REFERENCES sites(id),
  member_id       bigint NOT NULL REFERENCES members(id),
  order_no        text NOT NULL UNIQUE CHECK (order_no ~ '^[A-Z0-9]{8,40}$'),
  amount_minor    bigint NOT NULL CHECK (amount_minor > 0 AND amount_minor <= 9999999999999),
  -- Reward promised by the channel when the order is paid (credited to bonus).
  bonus_minor     bigint NOT NULL DEFAULT 0 CHECK (bonus_minor >= 0),
  status          text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'paid', 'expired', 'refunded', 'failed')),
  payment_method  text NOT NULL,
  channel         text NOT NULL,
  txid            text NOT NULL UNIQUE,
  pix_copy_paste  text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  paid_at         timestamptz,
  end_to_end_id   text UNIQUE,
  payer_cpf       text,
  -- The wallet transfer that credited the order (deposit kind), when paid.
  credit_transfer_id bigint,
  -- A refused payment (br CPF mismatch) is sent back: our refund id and the PSP's verdict.
  refund_id       text,
  refund_status   text CHECK (refund_status IN ('requested', 'returned', 'failed')),
  fail_reason     text,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (expires_at > created_at)
);

CREATE INDEX deposit_orders_member_idx ON deposit_orders (member_id, id DESC);
CREATE INDEX deposit_orders_pending_idx ON deposit_orders (expires_at) WHERE status = 'pending';

CREATE TABLE withdrawal_orders (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint NOT NULL REFERENCES sites(id),
  member_id       bigint NOT NULL REFERENCES members(id),
  order_no        text NOT NULL UNIQUE CHECK (order_no ~ '^[A-Z0-9]{8,40}$'),
  amount_minor    bigint NOT NULL CHECK (amount_minor > 0 AND amount_minor <= 9999999999999),
  fee_minor       bigint NOT NULL CHECK (fee_minor >= 0),
  actual_minor    bigint NOT NULL CHECK (actual_minor > 0),
  status          text NOT NULL DEFAULT 'pending_review'
                  CHECK (status IN ('pending_review', 'approved', 'paying', 'paid', 'rejected', 'failed')),
  review_status   text NOT NULL DEFAULT 'not_reviewed' CHECK (review_status IN ('not_reviewed', 'reviewed')),
  bank_card_id    bigint NOT NULL REFERENCES member_bank_cards(id),
  -- Where the money goes, copied from the card at request time (a card may be edited or removed).
  payment_type    text NOT NULL,
  pix_key         text NOT NULL,
  pix_key_type    text NOT NULL CHECK (pix_key_type IN ('CPF', 'CNPJ', 'EVP', 'PHONE', 'EMAIL')),
  payee_name      text NOT NULL,
  payee_cpf       text,
  member_remark   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  reviewed_at     timestamptz,
  reviewed_by     bigint REFERENCES operators(id),
  paid_at         timestamptz,
  remark          text,
  hold_transfer_id bigint NOT NULL UNIQUE,
  -- The PSP payout (createPayout id), set on approval.
  payout_id       text UNIQUE,
  -- The transfer that resolved the hold: payout (paid) or release (rejected / failed).
  resolve_transfer_id bigint,
  fail_reason     text,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (actual_minor = amount_minor - fee_minor),
  CHECK ((review_status = 'reviewed') = (status <> 'pending_review'))
);

CREATE INDEX withdrawal_orders_member_idx ON withdrawal_orders (member_id, id DESC);
CREATE INDEX withdrawal_orders_review_idx ON withdrawal_orders (site_id, id) WHERE status = 'pending_review';

-- Wrong withdrawal passwords, for the lockout (N failures in a window locks withdrawals).
CREATE TABLE withdraw_password_failures (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id   bigint NOT NULL REFERENCES members(id),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX withdraw_password_failures_member_idx ON withdraw_password_failures (member_id, created_at);
