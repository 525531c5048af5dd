-- Bank cards: the PIX keys a member withdraws to (spec §3 "Bank card"). Owned by the bank-cards
-- module. A card is never deleted: removing it sets deleted_at, because withdrawal_orders keep
-- pointing at the card they paid to.
--
-- pix_key is stored normalised per account_type (the form the PSP's DICT lookup uses):
--   CPF   11 digits            CNPJ  14 characters (12 digits or capitals, 2 check digits)
--   EVP   lower-case UUID v4   PHONE +55 and 10-11 digits (E.164)
--   EMAIL lower-case address (≤ 77 characters, the DICT limit)
-- cpf is the payee's CPF (11 digits). On `br` sites every card of a member carries the member's own
-- CPF: the CPF of the member's first card binds the member (see bank-cards.service.ts).

CREATE TABLE member_bank_cards (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id       bigint NOT NULL REFERENCES sites(id),
  member_id     bigint NOT NULL REFERENCES members(id),
  bank_name     text NOT NULL CHECK (char_length(bank_name) BETWEEN 1 AND 60),
  account_type  text NOT NULL CHECK (account_type IN ('CPF', 'CNPJ', 'EVP', 'PHONE', 'EMAIL')),
  payee_name    text NOT NULL CHECK (char_length(payee_name) BETWEEN 1 AND 100),
  pix_key       text NOT NULL CHECK (char_length(pix_key) BETWEEN 1 AND 77),
  cpf           text CHECK (cpf ~ '^[0-9]{11}$'),
  account_no    text CHECK (char_length(account_no) BETWEEN 1 AND 40),
  is_default    boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz,
  CONSTRAINT member_bank_cards_key_format CHECK (
    (account_type = 'CPF' AND pix_key ~ '^[0-9]{11}$')
    OR (account_type = 'CNPJ' AND pix_key ~ '^[0-9A-Z]{12}[0-9]{2}$')
    OR (account_type = 'EVP' AND pix_key ~ '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$')
    OR (account_type = 'PHONE' AND pix_key ~ '^\+55[0-9]{10,11}$')
    OR (account_type = 'EMAIL' AND pix_key = lower(pix_key) AND pix_key ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$')),
  -- A removed card is never the default one.
  CONSTRAINT member_bank_cards_default_active CHECK (NOT (is_default AND deleted_at IS NOT NULL))
);

-- One active card per PIX key on a site: the same key twice for one member, or a key another
-- member of the site already uses, is refused.
CREATE UNIQUE INDEX member_bank_cards_active_key ON member_bank_cards (site_id, account_type, pix_key)
  WHERE deleted_at IS NULL;
-- At most one default card per member.
CREATE UNIQUE INDEX member_bank_cards_one_default ON member_bank_cards (member_id)
  WHERE is_default AND deleted_at IS NULL;
CREATE INDEX member_bank_cards_member ON member_bank_cards (member_id, id);
CREATE INDEX member_bank_cards_site_cpf ON member_bank_cards (site_id, cpf) WHERE cpf IS NOT NULL;
