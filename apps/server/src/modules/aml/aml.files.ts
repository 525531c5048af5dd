import { createHash } from 'node:crypto';

/**
 * The files compliance produces (ADR 040), as JSON with a fixed key order: the communication of a
 * suspicious operation to COAF (its fields are what such a communication carries — who, what,
 * amounts, dates, why — in our own layout, since the Siscoaf form is filled by the operator from
 * it), the yearly non-occurrence declaration and the annual report. Text in, checksum out.
 */

export type TEntity = { site_code: string; site_name: string; jurisdiction: string };

export type TCoafInput = {
  entity: TEntity;
  caseId: bigint;
  subject: {
    member_id: string;
    username: string;
    name: string;
    cpf: string | null;
    birth_date: string | null;
    pep: boolean;
  };
  operations: { at: string; kind: string; amount_minor: string | null; detail: string }[];
  reasons: { rule: string; legal_basis: string; amount_minor: string; event_at: string; evidence: unknown }[];
  narrative: string;
  operator: string;
  at: Date;
};

export type TFile = { fileName: string; content: string; sha256: string };

function fileOf(fileName: string, body: unknown): TFile {
  const content = `${JSON.stringify(body, null, 2)}\n`;
  return { fileName, content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

/** The currency of amounts in every file: minor units of the site's currency (BRL centavos on br). */
const AMOUNTS = 'integer minor units of the site currency';

export function coafCommunication(input: TCoafInput): TFile {
  return fileOf(`coaf-${input.entity.site_code}-case-${input.caseId}.json`, {
    layout: 'sorte-coaf-v1',
    kind: 'suspicious_operation_communication',
    reporting_entity: input.entity,
    case_id: input.caseId.toString(),
    communicated_at: input.at.toISOString(),
    prepared_by: input.operator,
    subject: input.subject,
    amounts: AMOUNTS,
    operations: input.operations,
    reasons: input.reasons,
    narrative: input.narrative,
  });
}

export function nonOccurrenceDeclaration(entity: TEntity, year: number, operator: string, at: Date): TFile {
  return fileOf(`non-occurrence-${entity.site_code}-${year}.json`, {
    layout: 'sorte-coaf-v1',
    kind: 'non_occurrence_declaration',
    reporting_entity: entity,
    year,
    statement: `No operation of ${year} was communicated to COAF as suspicious.`,
    declared_at: at.toISOString(),
    declared_by: operator,
  });
}

export function annualReport(
  entity: TEntity,
  year: number,
  figures: Record<string, unknown>,
  rules: { rule: string; legal_basis: string; params: unknown; enabled: boolean }[],
  operator: string,
  at: Date,
): TFile {
  return fileOf(`aml-annual-${entity.site_code}-${year}.json`, {
    layout: 'sorte-coaf-v1',
    kind: 'annual_report',
    reporting_entity: entity,
    year,
    figures,
    rules,
    prepared_at: at.toISOString(),
    prepared_by: operator,
  });
}
