-- Identity verification, the rest of issue 36 §1 (ADR 036 §7–§10): the provider sends a session to
-- manual review at the operator; Sorte fetches its document images over the provider's API and
-- keeps them encrypted (AES-256-GCM, key from KYC_DOCUMENT_KEY) for the profile's retention; the
-- back office decides; sign-up on a profile that allows it prefills name and birth date from a
-- CPF lookup; each rule's legal basis has a message key so the player reads it in their language.

-- 'manual_review': the provider sent the session to the operator's own review (back office).
ALTER TABLE kyc_sessions DROP CONSTRAINT kyc_sessions_status_check;
ALTER TABLE kyc_sessions ADD CONSTRAINT kyc_sessions_status_check CHECK (status IN (
  'created', 'submitted', 'manual_review', 'approved', 'rejected', 'resubmission_requested'));
-- When the session reached approved or rejected (the retention period of its documents starts
-- there, or at the account's closure if that is later).
ALTER TABLE kyc_sessions ADD COLUMN decided_at timestamptz;
UPDATE kyc_sessions SET decided_at = updated_at WHERE status IN ('approved', 'rejected');
-- When the provider asked for a manual review, when its documents were fetched, and why the last
-- fetch failed (a file that is not JPEG, PNG or PDF, one above 8 MB, the provider unreachable).
ALTER TABLE kyc_sessions ADD COLUMN review_requested_at timestamptz;
ALTER TABLE kyc_sessions ADD COLUMN documents_fetched_at timestamptz;
ALTER TABLE kyc_sessions ADD COLUMN documents_error text CHECK (char_length(documents_error) <= 60);
CREATE INDEX kyc_sessions_review ON kyc_sessions (site_id, review_requested_at)
  WHERE status = 'manual_review';

-- The document images of a session, encrypted: iv (12 bytes) and auth_tag (16) of AES-256-GCM,
-- with "<session id>:<kind>" as additional data, so a row copied onto another session or kind does
-- not decrypt. key_id names the key (the first 16 hex digits of its SHA-256), so a rotated key is
-- told apart from a damaged row. The type was read from the bytes, never from what was claimed.
CREATE TABLE kyc_documents (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id    bigint NOT NULL REFERENCES kyc_sessions (id),
  site_id       bigint NOT NULL REFERENCES sites (id),
  member_id     bigint NOT NULL REFERENCES members (id),
  kind          text NOT NULL CHECK (kind IN ('document_front', 'document_back', 'selfie')),
  content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
  size_bytes    integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 8388608),
  key_id        text NOT NULL CHECK (key_id ~ '^[0-9a-f]{16}$'),
  iv            bytea NOT NULL CHECK (octet_length(iv) = 12),
  auth_tag      bytea NOT NULL CHECK (octet_length(auth_tag) = 16),
  ciphertext    bytea NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (session_id, kind)
);
CREATE INDEX kyc_documents_member ON kyc_documents (member_id);

-- Per profile, as data: how long documents are kept, and whether sign-up may prefill name and
-- birth date from a CPF lookup (with how many lookups an address and a CPF get per hour).
CREATE TABLE kyc_profile_settings (
  jurisdiction            text PRIMARY KEY REFERENCES jurisdiction_profiles (jurisdiction),
  document_retain_days    integer NOT NULL CHECK (document_retain_days BETWEEN 1 AND 7300),
  retention_basis         text NOT NULL CHECK (char_length(retention_basis) BETWEEN 1 AND 500),
  cpf_prefill             boolean NOT NULL,
  cpf_lookups_per_ip_hour integer NOT NULL CHECK (cpf_lookups_per_ip_hour BETWEEN 0 AND 1000),
  cpf_lookups_per_cpf_hour integer NOT NULL CHECK (cpf_lookups_per_cpf_hour BETWEEN 0 AND 1000)
);
INSERT INTO kyc_profile_settings VALUES
  ('br', 1826,
   'Lei 9.613/1998 art. 10 §2 (records of clients kept at least five years from the end of the relationship); Portaria SPA/MF 1.143/2024 (five-year retention of PLD/FTP records)',
   true, 10, 3),
  ('intl', 1826,
   'Operator policy: FATF Recommendation 11 (records of customer due diligence kept at least five years after the business relationship ends)',
   false, 0, 0);

-- The CPF lookups of sign-up forms in the last hours (the limits above count them). The CPF is
-- kept only as an HMAC under the document key (shared by every process), and rows older than a day are dropped.
CREATE TABLE kyc_cpf_lookups (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id     bigint NOT NULL REFERENCES sites (id),
  ip          text NOT NULL CHECK (char_length(ip) BETWEEN 1 AND 64),
  cpf_digest  text NOT NULL CHECK (octet_length(cpf_digest) = 64 AND cpf_digest !~ '[^0-9a-f]'),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kyc_cpf_lookups_ip ON kyc_cpf_lookups (site_id, ip, created_at);
CREATE INDEX kyc_cpf_lookups_cpf ON kyc_cpf_lookups (site_id, cpf_digest, created_at);

-- The legal basis of each rule, translatable: the message "kyc.legal_basis.<key>" in every locale
-- (legal_basis keeps the English citation for the record and for API clients).
ALTER TABLE kyc_rules ADD COLUMN legal_basis_key text CHECK (legal_basis_key ~ '^[a-z_]{1,40}$');
UPDATE kyc_rules SET legal_basis_key = jurisdiction || '_' || action;
ALTER TABLE kyc_rules ALTER COLUMN legal_basis_key SET NOT NULL;
