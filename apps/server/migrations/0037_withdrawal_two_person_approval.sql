-- Back office (issue 15): a withdrawal of at least the site's second-approval amount needs two
-- different operators. The first approval is recorded here; the second one pays. The amount is data
-- of the site's withdrawal settings (site_id NULL: the default for sites without their own row);
-- NULL turns the second approval off for that site.
ALTER TABLE withdrawal_settings ADD COLUMN second_approval_minor bigint DEFAULT 500000
  CHECK (second_approval_minor IS NULL OR (second_approval_minor > 0 AND second_approval_minor <= 9999999999999));

CREATE TABLE withdrawal_approvals (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id      bigint NOT NULL REFERENCES sites(id),
  order_id     bigint NOT NULL REFERENCES withdrawal_orders(id),
  operator_id  bigint NOT NULL REFERENCES operators(id),
  remark       text CHECK (remark IS NULL OR char_length(remark) <= 200),
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- The same operator never approves one order twice.
  UNIQUE (order_id, operator_id)
);
CREATE INDEX withdrawal_approvals_order_idx ON withdrawal_approvals (order_id);
