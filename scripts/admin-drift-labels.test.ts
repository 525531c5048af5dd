import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DRIFT_CHECKS } from '../apps/server/src/modules/wallet/wallet.reconcile.ts';

/**
 * The back office's reconciliation page names each drift in the operator's language
 * (`reconciliation.checks.<CHECK>` of apps/admin/src/locales): every check reconcile can report has
 * a non-empty label in every language of the back office, and no label names a check that is gone.
 */
const ADMIN_LANGUAGES = ['en', 'pt', 'cn'] as const;

describe('back office drift labels', () => {
  it.each(ADMIN_LANGUAGES)('%s names every reconcile check', (language) => {
    const catalogue = JSON.parse(
      readFileSync(join(import.meta.dirname, '../apps/admin/src/locales', `${language}.json`), 'utf8'),
    ) as { reconciliation: { checks: Record<string, string> } };
    const labels = catalogue.reconciliation.checks;
    expect(Object.keys(labels).sort()).toEqual(Object.keys(DRIFT_CHECKS).sort());
    for (const label of Object.values(labels)) expect(label.trim()).not.toBe('');
  });
});
