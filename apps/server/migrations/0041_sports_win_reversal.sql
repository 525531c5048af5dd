-- Sportsbook: a corrected result resettles a bet as a ledger reversal, never an update — the payout
-- of the previous outcome is taken back (kind win_reversal, cash → house) and the new outcome pays
-- anew (win / refund). A transfer kind of its own (the contract's TRANSACTION_KINDS).
ALTER TABLE wallet_transfers DROP CONSTRAINT wallet_transfers_kind;
ALTER TABLE wallet_transfers ADD CONSTRAINT wallet_transfers_kind CHECK (kind IN (
  'deposit', 'withdrawal_hold', 'withdrawal_release', 'withdrawal_payout', 'withdrawal_fee',
  'bet', 'win', 'refund', 'bonus_grant', 'bonus_convert', 'bonus_forfeit', 'rebate', 'commission',
  'correction', 'chat_rain', 'win_reversal'));
