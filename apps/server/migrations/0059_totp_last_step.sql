-- RFC 6238 §5.2: an authenticator code is good once. The last accepted time step (unix time / 30)
-- of each authenticator is kept beside its secret; a code is accepted only for a later step, by a
-- conditional UPDATE, so a code works once across every server process and an older step's code
-- is refused once a newer one was used. A setup link keeps the step its code proved, handed on to
-- the owner it creates.
ALTER TABLE members ADD COLUMN totp_last_step bigint CHECK (totp_last_step >= 0);
ALTER TABLE operators ADD COLUMN totp_last_step bigint CHECK (totp_last_step >= 0);
ALTER TABLE operator_setup_tokens ADD COLUMN totp_last_step bigint CHECK (totp_last_step >= 0);
