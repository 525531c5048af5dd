-- A politically exposed person is alerted when KYC flags them (the pep rule's legal basis is its
-- aml_rules row; ADR 040): the KYC webhook that sets member_kyc.pep writes an
-- outbox row of kind 'kyc' in its own transaction, so the screening opens the alert within a minute,
-- not at the player's next login or deposit.
ALTER TABLE aml_outbox DROP CONSTRAINT aml_outbox_kind_check;
ALTER TABLE aml_outbox ADD CONSTRAINT aml_outbox_kind_check
  CHECK (kind IN ('deposit', 'withdrawal', 'login', 'kyc'));
