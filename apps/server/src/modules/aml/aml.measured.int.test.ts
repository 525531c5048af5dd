import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import { measure, seedPatterns } from './aml.patterns.fixtures.ts';
import { runScreening } from './aml.screening.ts';

const kinds = await databaseKinds();

/**
 * 10,000 money events of a br site with ten of each known pattern among the normal play of
 * hundreds of clean players: every pattern must be alerted with its rule (recall 100 %), and the
 * alerts must fall on the pattern accounts (precision; the clean players' alerts are printed).
 */
describe.each(kinds)('AML screening measured on 10,000 money events on %s', (kind) => {
  afterAll(closeTestDatabases);

  it('alerts every seeded pattern and (almost) nothing of the clean play', async () => {
    const { db } = await testDatabase(kind);
    const seeded = await seedPatterns(db, 10_000);
    const started = performance.now();
    const run = await runScreening(db);
    const seconds = (performance.now() - started) / 1000;
    const result = await measure(db, seeded);
    console.log(
      `[aml ${kind}] ${seeded.moneyEvents} money events (${run.events} outbox rows, ${run.wins} large wins) screened in ${seconds.toFixed(1)} s: ` +
        `recall ${(result.recall * 100).toFixed(1)} % of ${result.patterns} patterns, precision ${(result.precision * 100).toFixed(1)} % ` +
        `of ${result.alerts} alerts, ${result.cleanAlerted} of ${result.cleanPlayers} clean players alerted`,
    );
    expect(seeded.moneyEvents).toBeGreaterThanOrEqual(10_000);
    expect(result.missed).toEqual([]);
    expect(result.recall).toBe(1);
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    expect(result.cleanAlerted / result.cleanPlayers).toBeLessThanOrEqual(0.01);
    // Screening again finds nothing new: the outbox is drained and every alert is keyed.
    expect((await runScreening(db)).alerts).toBe(0);
  }, 600_000);
});
