-- PIX against a real API Pix PSP (ADR 031).

-- How a deposit's payer must be proven, per jurisdiction profile (data, never `if (br)` in code):
-- 'none' credits any payer; 'own_cpf' credits only a Pix the PSP lists under the member's CPF
-- (GET /pix?cpf=), and returns any other (PUT /pix/{e2eid}/devolucao/{id}).
ALTER TABLE jurisdiction_profiles ADD COLUMN deposit_payer_check text NOT NULL DEFAULT 'none'
  CHECK (deposit_payer_check IN ('none', 'own_cpf'));
UPDATE jurisdiction_profiles SET deposit_payer_check = 'own_cpf' WHERE jurisdiction = 'br';

-- The Pix reconciliation job (missed callbacks): one row per period, inserted by the one process
-- that runs it; the others see the row and skip. Each run reads a window longer than the period,
-- so a run that died is covered by the next one.
CREATE TABLE psp_reconcile_runs (
  job          text NOT NULL CHECK (char_length(job) BETWEEN 1 AND 40),
  period       text NOT NULL CHECK (char_length(period) BETWEEN 1 AND 40),
  started_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  seen         integer NOT NULL DEFAULT 0,
  credited     integer NOT NULL DEFAULT 0,
  PRIMARY KEY (job, period)
);
