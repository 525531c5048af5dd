-- Self-referral (issue 34, item 5; ADR 030). A reward for bringing a player (the invitation reward,
-- the agency commission on a team member's play) is not paid when the inviter and the invitee share
-- an identity signal: the same CPF, payer CPF of a deposit, PIX key or bank-card CPF, or client IP
-- address. Each refusal is kept here for the operators: who, which reward, which kinds of signal
-- matched (never the values: the CPF or address itself stays where it was collected).
CREATE TABLE referral_blocks (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id        bigint NOT NULL REFERENCES sites(id),
  inviter_id     bigint NOT NULL REFERENCES members(id),
  invitee_id     bigint NOT NULL REFERENCES members(id),
  reward         text NOT NULL CHECK (reward IN ('invitation', 'commission')),
  signals        text[] NOT NULL CHECK (cardinality(signals) > 0
                   AND signals <@ ARRAY['cpf', 'payer_cpf', 'pix_key', 'ip']::text[]),
  first_seen_at  timestamptz NOT NULL DEFAULT now(),
  last_seen_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (inviter_id <> invitee_id),
  CONSTRAINT referral_blocks_once UNIQUE (site_id, reward, inviter_id, invitee_id)
);
CREATE INDEX referral_blocks_site_recent ON referral_blocks (site_id, last_seen_at DESC, id DESC);
