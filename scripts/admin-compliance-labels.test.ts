import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AML_CASE_STATUSES, AML_REPORT_KINDS, AML_RULES } from '@sorte/contract';
import { describe, expect, it } from 'vitest';

/**
 * The back office's Compliance page (ADR 040) names each AML rule, case status and file kind in the
 * operator's language: every one the contract lists has a non-empty label in every language of the
 * back office, and no label names one that is gone.
 */
const ADMIN_LANGUAGES = ['en', 'pt', 'cn'] as const;

type TCatalogue = {
  compliance: {
    rule: Record<string, string>;
    status: Record<string, string>;
    report_kind: Record<string, string>;
  };
  role: Record<string, string>;
  nav: Record<string, string>;
};

describe('back office compliance labels', () => {
  it.each(ADMIN_LANGUAGES)('%s names every rule, case status and file kind', (language) => {
    const catalogue = JSON.parse(
      readFileSync(join(import.meta.dirname, '../apps/admin/src/locales', `${language}.json`), 'utf8'),
    ) as TCatalogue;
    const { rule, status, report_kind } = catalogue.compliance;
    expect(Object.keys(rule).sort()).toEqual([...AML_RULES].sort());
    expect(Object.keys(status).sort()).toEqual([...AML_CASE_STATUSES].sort());
    expect(Object.keys(report_kind).sort()).toEqual([...AML_REPORT_KINDS].sort());
    for (const label of [...Object.values(rule), ...Object.values(status), ...Object.values(report_kind)]) {
      expect(label.trim()).not.toBe('');
    }
    expect(catalogue.role.compliance?.trim()).toBeTruthy();
    expect(catalogue.nav.compliance?.trim()).toBeTruthy();
  });
});
