-- What each member staked and got back, per UTC hour, kept by the ledger itself.
-- The responsible-gaming gate of every bet of a member with a stake or loss limit (a loss limit is
-- mandatory on br) sums the limit's period. Read from the transfers, a monthly limit read every
-- transfer of the member's month on every bet: linear in how much the member plays (6 ms at 2,225
-- transfers, about 130 ms for a player of 1,000 bets a day at the end of a month). Read from here it
-- is at most one row per hour the member played, plus the member's transfers of the part of an hour
-- before the period's start when the site's time zone is not a whole number of hours from UTC.
-- A statement trigger on the append-only ledger keeps it, in the transaction that posts the
-- transfers: no path that moves money can forget it, and reconcile checks it (PLAY_HOURS_MISMATCH).
CREATE TABLE member_play_hours (
  member_id       bigint NOT NULL REFERENCES members(id),
  hour            timestamptz NOT NULL,
  -- kind 'bet' debited from the member's accounts.
  staked_minor    bigint NOT NULL DEFAULT 0 CHECK (staked_minor >= 0),
  -- kinds 'win' and 'refund' credited to them.
  returned_minor  bigint NOT NULL DEFAULT 0 CHECK (returned_minor >= 0),
  -- kind 'win_reversal' debited from them (a payout taken back by a corrected sports result).
  reversed_minor  bigint NOT NULL DEFAULT 0 CHECK (reversed_minor >= 0),
  PRIMARY KEY (member_id, hour),
  CONSTRAINT member_play_hours_on_the_hour CHECK (hour = date_trunc('hour', hour, 'UTC'))
);

-- The member's side of each transfer of a play kind: what the hours sum, the trigger adds and
-- reconcile checks, defined once.
CREATE VIEW wallet_play_moves AS
  SELECT t.id AS transfer_id, a.member_id, date_trunc('hour', t.created_at, 'UTC') AS hour,
    CASE WHEN t.kind = 'bet' THEN t.amount_minor ELSE 0 END AS staked_minor, 0::bigint AS returned_minor,
    CASE WHEN t.kind = 'win_reversal' THEN t.amount_minor ELSE 0 END AS reversed_minor
  FROM wallet_transfers t JOIN wallet_accounts a ON a.id = t.debit_account_id
  WHERE t.kind IN ('bet', 'win_reversal') AND a.member_id IS NOT NULL
  UNION ALL
  SELECT t.id, a.member_id, date_trunc('hour', t.created_at, 'UTC'), 0, t.amount_minor, 0
  FROM wallet_transfers t JOIN wallet_accounts a ON a.id = t.credit_account_id
  WHERE t.kind IN ('win', 'refund') AND a.member_id IS NOT NULL;

-- A statement's new transfers, summed per member and hour: the view's two sides, read from the
-- transition table (whose size the planner knows: an index lookup of each side's account). Rows of
-- one member are only ever written by a transaction that holds the lock of that member's account
-- (its balance moved in the same statement), so the upsert never waits on another member's bets.
CREATE FUNCTION member_play_hours_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_play_hours AS h (member_id, hour, staked_minor, returned_minor, reversed_minor)
  SELECT member_id, hour, sum(staked), sum(returned), sum(reversed) FROM (
    SELECT a.member_id, date_trunc('hour', n.created_at, 'UTC') AS hour,
      CASE WHEN n.kind = 'bet' THEN n.amount_minor ELSE 0 END AS staked, 0::bigint AS returned,
      CASE WHEN n.kind = 'win_reversal' THEN n.amount_minor ELSE 0 END AS reversed
    FROM new_transfers n JOIN wallet_accounts a ON a.id = n.debit_account_id
    WHERE n.kind IN ('bet', 'win_reversal') AND a.member_id IS NOT NULL
    UNION ALL
    SELECT a.member_id, date_trunc('hour', n.created_at, 'UTC'), 0, n.amount_minor, 0
    FROM new_transfers n JOIN wallet_accounts a ON a.id = n.credit_account_id
    WHERE n.kind IN ('win', 'refund') AND a.member_id IS NOT NULL
  ) play GROUP BY member_id, hour
  ON CONFLICT (member_id, hour) DO UPDATE SET
    staked_minor = h.staked_minor + EXCLUDED.staked_minor,
    returned_minor = h.returned_minor + EXCLUDED.returned_minor,
    reversed_minor = h.reversed_minor + EXCLUDED.reversed_minor;
  RETURN NULL;
END;
$$;
CREATE TRIGGER wallet_transfers_play_hours AFTER INSERT ON wallet_transfers
  REFERENCING NEW TABLE AS new_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION member_play_hours_add();

-- What the ledger already holds (the trigger above holds off new transfers until this commits).
INSERT INTO member_play_hours (member_id, hour, staked_minor, returned_minor, reversed_minor)
SELECT member_id, hour, sum(staked_minor), sum(returned_minor), sum(reversed_minor)
FROM wallet_play_moves GROUP BY member_id, hour;
