-- Versioned terms and conditions (issue 13, legal pages): an operator announces a new version of the
-- site's terms with an effective date at least 14 days ahead; from that date every member who joined
-- before it must accept it before betting or depositing.
--
-- terms_versions: one row per (site, version). Version 1 is seeded effective in the past for every
--   site: a member accepted the version in force when they signed up, so acceptance is implicit for
--   versions effective before members.created_at and only later versions are ever pending.
-- terms_acceptances: the explicit acceptances, one per (member, version).

CREATE TABLE terms_versions (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  site_id       bigint NOT NULL REFERENCES sites(id),
  version       integer NOT NULL CHECK (version >= 1),
  effective_at  timestamptz NOT NULL,
  summary       text NOT NULL DEFAULT '' CHECK (char_length(summary) <= 2000),
  announced_by  bigint REFERENCES operators(id),
  announced_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, version)
);
CREATE INDEX terms_versions_site_effective ON terms_versions (site_id, effective_at DESC);

INSERT INTO terms_versions (site_id, version, effective_at, summary)
SELECT id, 1, '2020-01-01T00:00:00Z', '' FROM sites;

CREATE TABLE terms_acceptances (
  member_id        bigint NOT NULL REFERENCES members(id),
  terms_version_id bigint NOT NULL REFERENCES terms_versions(id),
  accepted_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, terms_version_id)
);
