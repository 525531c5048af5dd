-- Data for the regulator (issue 36 §4, ADR 039): which jurisdiction profiles send daily files of
-- bets and financial transactions, in which layout, by when, and the files themselves, kept in the
-- database so the embedded database and PostgreSQL store them alike.

-- A profile that reports. The code reads this row; a profile without one sends nothing.
-- layout: the adapter that writes the files ('sorte-v1' is our own, docs/regulator-layout.md).
-- time_zone: the site's calendar day the files cover. due_hour: the files of a day must be ready
-- before this local hour of the next day; build_after_minutes: how long after local midnight the
-- day is closed (transactions that began before midnight have committed). catch_up_days: how many
-- past days the job looks back at for a day without files (a day the server was down).
CREATE TABLE regulator_profiles (
  jurisdiction          text PRIMARY KEY REFERENCES jurisdiction_profiles (jurisdiction),
  layout                text NOT NULL CHECK (layout IN ('sorte-v1')),
  time_zone             text NOT NULL CHECK (char_length(time_zone) BETWEEN 1 AND 64),
  currency              text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  max_records_per_file  integer NOT NULL CHECK (max_records_per_file BETWEEN 1 AND 1000000),
  due_hour              smallint NOT NULL CHECK (due_hour BETWEEN 1 AND 23),
  build_after_minutes   smallint NOT NULL CHECK (build_after_minutes BETWEEN 0 AND 600),
  catch_up_days         smallint NOT NULL CHECK (catch_up_days BETWEEN 1 AND 60),
  legal_basis           text NOT NULL CHECK (char_length(legal_basis) BETWEEN 1 AND 500),
  CHECK (build_after_minutes < due_hour * 60)
);
INSERT INTO regulator_profiles VALUES
  ('br', 'sorte-v1', 'America/Sao_Paulo', 'BRL', 7000, 6, 15, 7,
   'Lei 14.790/2023 and Portaria SPA/MF 722/2024 (operator data sent to the SPA reporting system, SIGAP): daily files of bets and financial transactions by 06:00 of the next day, at most 7,000 records per file, accepted after structure and quality checks');

-- One site's files of one local day. status: 'ready' once every file passed the layout's structure
-- check, 'invalid' (problems say why) otherwise. The manifest lists every file with its checksum.
CREATE TABLE regulator_reports (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id          bigint NOT NULL REFERENCES sites (id),
  day              date NOT NULL,
  layout           text NOT NULL CHECK (char_length(layout) BETWEEN 1 AND 40),
  status           text NOT NULL CHECK (status IN ('building', 'ready', 'invalid')),
  problems         text[] NOT NULL DEFAULT '{}',
  manifest_name    text NOT NULL CHECK (char_length(manifest_name) BETWEEN 1 AND 200),
  manifest         text NOT NULL,
  manifest_sha256  text NOT NULL CHECK (octet_length(manifest_sha256) = 64 AND manifest_sha256 !~ '[^0-9a-f]'),
  bet_records      integer NOT NULL CHECK (bet_records >= 0),
  transaction_records integer NOT NULL CHECK (transaction_records >= 0),
  built_at         timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT regulator_reports_site_day UNIQUE (site_id, day)
);

-- The data files of a report, in order. content is the file's exact text (UTF-8); sha256 its hex
-- checksum over those bytes, as the manifest states it.
CREATE TABLE regulator_files (
  report_id  bigint NOT NULL REFERENCES regulator_reports (id) ON DELETE CASCADE,
  name       text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  kind       text NOT NULL CHECK (kind IN ('bets', 'transactions')),
  sequence   integer NOT NULL CHECK (sequence >= 1),
  records    integer NOT NULL CHECK (records >= 0),
  bytes      integer NOT NULL CHECK (bytes >= 0),
  sha256     text NOT NULL CHECK (octet_length(sha256) = 64 AND sha256 !~ '[^0-9a-f]'),
  content    text NOT NULL,
  PRIMARY KEY (report_id, name),
  UNIQUE (report_id, kind, sequence)
);
