-- Withdrawals: a request is made once per Idempotency-Key, and a player may cancel an order still
-- waiting for review (the held money returns at once).
--
-- idempotency_key: the client's key for this submit (unique per member); request_hash: SHA-256 of
-- the request's fields (the withdrawal password excluded), so the same key with other details is
-- refused instead of answered with the first order.
ALTER TABLE withdrawal_orders
  ADD COLUMN idempotency_key text CHECK (idempotency_key ~ '^[A-Za-z0-9_.:-]{8,64}$'),
  ADD COLUMN request_hash text CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  ADD COLUMN cancelled_at timestamptz,
  ADD CONSTRAINT withdrawal_orders_key_hash CHECK ((idempotency_key IS NULL) = (request_hash IS NULL));

CREATE UNIQUE INDEX withdrawal_orders_idempotency_idx
  ON withdrawal_orders (member_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- 'cancelled': withdrawn by the player before review; it is never reviewed.
ALTER TABLE withdrawal_orders DROP CONSTRAINT withdrawal_orders_status_check;
ALTER TABLE withdrawal_orders ADD CONSTRAINT withdrawal_orders_status_check
  CHECK (status IN ('pending_review', 'approved', 'paying', 'paid', 'rejected', 'failed', 'cancelled'));
ALTER TABLE withdrawal_orders DROP CONSTRAINT withdrawal_orders_check1;
ALTER TABLE withdrawal_orders ADD CONSTRAINT withdrawal_orders_reviewed_check
  CHECK ((review_status = 'reviewed') = (status NOT IN ('pending_review', 'cancelled')));
ALTER TABLE withdrawal_orders ADD CONSTRAINT withdrawal_orders_cancelled_check
  CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL));
