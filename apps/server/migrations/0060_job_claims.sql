-- One job runner (ADR 035): a periodic job that must run once per period across every server
-- process on the database claims (job, period) here first; only the process whose insert succeeds
-- runs that period, the others skip it. The period is the start of the job's period window (UTC).
-- Claims older than a week are pruned by the runner.
CREATE TABLE job_claims (
  job         text NOT NULL CHECK (job ~ '^[a-z0-9-]{1,40}$'),
  period      timestamptz NOT NULL,
  claimed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job, period)
);
