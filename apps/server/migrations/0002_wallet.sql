-- Wallet: the double-entry ledger (architecture.md §3). Only the wallet module writes these tables.
--
-- Sign convention, for every account: balance = sum(credits) - sum(debits). A transfer moves
-- `amount_minor` centavos OUT of its debit account and INTO its credit account, so the sum of all
-- balances of a site is zero at every moment.
--   * Player accounts (cash, bonus, withdrawal_hold) hold what the site owes the player: never
--     negative, enforced here by CHECK (balance_minor >= 0).
--   * System accounts are the other side and may go negative by design: psp_clearing goes negative
--     by every deposit (money that came in from the PSP) and back up by every payout; house is
--     positive when players lose and negative when they win; promotions_expense is negative by the
--     bonuses granted; provider_settlement mirrors bets/wins on third-party games; fees collects
--     withdrawal fees (positive); suspense is the counterpart of manual corrections.
--
-- Hot rows: system accounts have NO stored balance (balance_minor IS NULL). Their balance is the
-- sum of their transfers, computed on read and by the reconcile job, so no transfer ever takes a row
-- lock on a shared account: only the player accounts a transfer touches are locked (in id order).

CREATE TABLE wallet_accounts (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id                 bigint NOT NULL REFERENCES sites(id),
  member_id               bigint REFERENCES members(id),
  kind                    text NOT NULL,
  -- Player accounts only (NULL on system accounts, whose balance is derived from transfers).
  balance_minor           bigint,
  -- Cash accounts only: turnover (sum of stakes) the member must still bet before withdrawing.
  wagering_required_minor bigint,
  created_at              timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT wallet_accounts_kind CHECK (kind IN (
    'cash', 'bonus', 'withdrawal_hold',
    'house', 'psp_clearing', 'promotions_expense', 'provider_settlement', 'fees', 'suspense')),
  CONSTRAINT wallet_accounts_owner CHECK (
    (member_id IS NOT NULL) = (kind IN ('cash', 'bonus', 'withdrawal_hold'))),
  CONSTRAINT wallet_accounts_stored_balance CHECK ((member_id IS NOT NULL) = (balance_minor IS NOT NULL)),
  CONSTRAINT wallet_accounts_balance_non_negative CHECK (balance_minor >= 0),
  CONSTRAINT wallet_accounts_wagering_on_cash CHECK ((kind = 'cash') = (wagering_required_minor IS NOT NULL)),
  CONSTRAINT wallet_accounts_wagering_non_negative CHECK (wagering_required_minor >= 0),
  -- Target of the transfers' (account, site) foreign keys: both sides of a transfer are one site's.
  CONSTRAINT wallet_accounts_id_site UNIQUE (id, site_id)
);

CREATE UNIQUE INDEX wallet_accounts_member_kind ON wallet_accounts (member_id, kind) WHERE member_id IS NOT NULL;
CREATE UNIQUE INDEX wallet_accounts_system_kind ON wallet_accounts (site_id, kind) WHERE member_id IS NULL;

CREATE TABLE wallet_transfers (
  id                         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id                    bigint NOT NULL REFERENCES sites(id),
  kind                       text NOT NULL,
  debit_account_id           bigint NOT NULL,
  credit_account_id          bigint NOT NULL,
  amount_minor               bigint NOT NULL,
  -- Balances right after this transfer, for the player accounts it touched (NULL for system ones):
  -- the transaction record shows them and an idempotent replay returns them unchanged.
  debit_balance_after_minor  bigint,
  credit_balance_after_minor bigint,
  -- The change this transfer made to a member's wagering requirement (0 = none), and whose.
  wagering_account_id        bigint,
  wagering_delta_minor       bigint NOT NULL DEFAULT 0,
  -- Set on the transfer that resolves a withdrawal hold (payout or release): the hold's transfer.
  hold_transfer_id           bigint REFERENCES wallet_transfers(id),
  reference                  text NOT NULL DEFAULT '',
  metadata                   jsonb NOT NULL DEFAULT '{}'::jsonb,
  idempotency_key            text NOT NULL,
  -- SHA-256 (hex) of the canonical request: same key + other request = IDEMPOTENCY_CONFLICT.
  request_hash               text NOT NULL,
  created_at                 timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT wallet_transfers_kind CHECK (kind IN (
    'deposit', 'withdrawal_hold', 'withdrawal_release', 'withdrawal_payout', 'withdrawal_fee',
    'bet', 'win', 'refund', 'bonus_grant', 'bonus_convert', 'bonus_forfeit', 'rebate', 'commission',
    'correction')),
  -- 9_999_999_999_999 = MAX_MINOR of packages/contract/src/money.ts.
  CONSTRAINT wallet_transfers_amount CHECK (amount_minor > 0 AND amount_minor <= 9999999999999),
  CONSTRAINT wallet_transfers_two_accounts CHECK (debit_account_id <> credit_account_id),
  CONSTRAINT wallet_transfers_debit_site FOREIGN KEY (debit_account_id, site_id)
    REFERENCES wallet_accounts (id, site_id),
  CONSTRAINT wallet_transfers_credit_site FOREIGN KEY (credit_account_id, site_id)
    REFERENCES wallet_accounts (id, site_id),
  CONSTRAINT wallet_transfers_wagering_site FOREIGN KEY (wagering_account_id, site_id)
    REFERENCES wallet_accounts (id, site_id),
  CONSTRAINT wallet_transfers_wagering_pair CHECK ((wagering_account_id IS NULL) = (wagering_delta_minor = 0)),
  CONSTRAINT wallet_transfers_hold_kind CHECK (
    (hold_transfer_id IS NOT NULL) = (kind IN ('withdrawal_release', 'withdrawal_payout'))),
  CONSTRAINT wallet_transfers_reference CHECK (char_length(reference) <= 128),
  CONSTRAINT wallet_transfers_key CHECK (char_length(idempotency_key) BETWEEN 1 AND 128),
  CONSTRAINT wallet_transfers_hash CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  CONSTRAINT wallet_transfers_idempotency UNIQUE (site_id, idempotency_key)
);

CREATE INDEX wallet_transfers_debit ON wallet_transfers (debit_account_id, id);
CREATE INDEX wallet_transfers_credit ON wallet_transfers (credit_account_id, id);
CREATE INDEX wallet_transfers_reference ON wallet_transfers (site_id, reference) WHERE reference <> '';
-- A withdrawal hold is resolved (paid out or released) at most once.
CREATE UNIQUE INDEX wallet_transfers_hold_resolved_once ON wallet_transfers (hold_transfer_id)
  WHERE hold_transfer_id IS NOT NULL;

-- Transfers are append-only: a mistake is fixed by a correcting transfer, never by editing history.
CREATE FUNCTION wallet_transfers_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused): post a correcting transfer', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'P0001';
END;
$$;
CREATE TRIGGER wallet_transfers_no_update_delete BEFORE UPDATE OR DELETE ON wallet_transfers
  FOR EACH ROW EXECUTE FUNCTION wallet_transfers_append_only();
CREATE TRIGGER wallet_transfers_no_truncate BEFORE TRUNCATE ON wallet_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION wallet_transfers_append_only();

-- Accounts are never deleted and never change owner, site or kind; only their balances move.
CREATE FUNCTION wallet_accounts_fixed_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' OR NEW.id <> OLD.id OR NEW.site_id <> OLD.site_id
     OR NEW.member_id IS DISTINCT FROM OLD.member_id OR NEW.kind <> OLD.kind
     OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'wallet_accounts identity is immutable (% refused)', TG_OP USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER wallet_accounts_no_identity_change BEFORE UPDATE OR DELETE ON wallet_accounts
  FOR EACH ROW EXECUTE FUNCTION wallet_accounts_fixed_identity();
CREATE TRIGGER wallet_accounts_no_truncate BEFORE TRUNCATE ON wallet_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION wallet_transfers_append_only();
