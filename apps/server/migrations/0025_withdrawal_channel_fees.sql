-- Withdrawal fees are a setting per site and payout channel (issue 14). The leading Brazilian sites
-- charge nothing on a PIX withdrawal, so the default PIX fee is zero; an operator who charges one
-- sets a row for the site (or changes the default row). Bounds and the daily count stay in
-- withdrawal_settings; its single fee rule for every channel goes.
--
-- channel: the payout rail ('pix' today; every PIX key type — CPF, CNPJ, phone, e-mail, random —
-- is paid over it). site_id NULL: the default for sites without a row of their own.
CREATE TABLE withdrawal_channel_fees (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id         bigint REFERENCES sites(id),
  channel         text NOT NULL CHECK (channel ~ '^[a-z0-9_]{1,32}$'),
  fee_bps         integer NOT NULL DEFAULT 0 CHECK (fee_bps BETWEEN 0 AND 10000),
  fee_min_minor   bigint NOT NULL DEFAULT 0 CHECK (fee_min_minor >= 0 AND fee_min_minor <= 9999999999999),
  UNIQUE NULLS NOT DISTINCT (site_id, channel)
);

INSERT INTO withdrawal_channel_fees (site_id, channel) VALUES (NULL, 'pix');

ALTER TABLE withdrawal_settings DROP COLUMN fee_bps, DROP COLUMN fee_min_minor;
