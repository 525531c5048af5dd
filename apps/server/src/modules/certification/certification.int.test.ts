import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CERTIFIED_GAMES, translate } from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, loginOperator } from '../../../test/app.ts';
import { DEFAULT_REPORT_FILE } from './certification.report.ts';

/** The report the repository ships, as `npm run certify` wrote it. */
const shipped = JSON.parse(readFileSync(DEFAULT_REPORT_FILE, 'utf8'));
const folder = mkdtempSync(join(tmpdir(), 'sorte-certification-'));

/** A report like the shipped one, written where only this test reads it. */
function reportFile(name: string, change: (report: typeof shipped) => unknown): string {
  const path = join(folder, name);
  writeFileSync(path, JSON.stringify(change(structuredClone(shipped))));
  return path;
}

describe('certification figures (PGlite)', () => {
  let app: FastifyInstance;
  const webDist = join(folder, 'web');
  const manifest = JSON.stringify({ 'index.html': { file: 'assets/index-abc123.js' } });
  beforeAll(async () => {
    mkdirSync(join(webDist, '.vite'), { recursive: true });
    writeFileSync(join(webDist, '.vite', 'manifest.json'), manifest);
    writeFileSync(join(webDist, 'index.html'), '<!doctype html>');
    app = await buildTestApp('pglite', { WEB_DIST: webDist, BUILD_COMMIT: shipped.commit });
  });
  afterAll(async () => {
    await app.close();
  });

  it("serves every in-house game's figures from the shipped report, with its commit and sizes", async () => {
    const { status, body } = await call(app, { method: 'GET', url: '/api/originals/certification' });
    expect(status).toBe(200);
    const data = body.data;
    expect(data.commit).toBe(shipped.commit);
    expect(data.generated_at).toBe(shipped.generatedAt);
    expect(data.confidence).toBe(0.999);
    expect(data.sizes.rounds_per_mode).toBe(shipped.sizes.rounds);
    // The shipped report is a --quick smoke run: the answer must not pass it off as a full one.
    expect(data.sizes.full_sizes).toBe(!shipped.commands.some((c: string) => c.includes('--')));
    expect(data.games.map((g: { game: string }) => g.game).sort()).toEqual([...CERTIFIED_GAMES].sort());
    const modes = data.games.flatMap((g: { modes: unknown[] }) => g.modes);
    expect(modes).toHaveLength(shipped.modes.length);

    const dice = shipped.modes.find((m: { id: string }) => m.id === 'dice:under-5000');
    const exact = shipped.enumeration.find((e: { id: string }) => e.id === 'dice:under-5000');
    const served = modes.find((m: { id: string }) => m.id === 'dice:under-5000');
    expect(served).toEqual({
      id: 'dice:under-5000',
      label: dice.mode,
      declared_rtp: dice.declaredRtp,
      enumerated_rtp: exact.exactRtp,
      enumeration_matches: exact.matches,
      best_strategy_rtp: null,
      rounds: dice.rounds,
      measured_rtp: dice.rtp.rtp,
      ci_low: dice.rtp.low,
      ci_high: dice.rtp.high,
      declared_within_ci: dice.rtpWithinCi,
      chi_square_p: dice.chiSquare.pValue,
      runs_p: dice.runs.pValue,
      serial_p: dice.serial.pValue,
    });
    const hilo = modes.find((m: { id: string }) => m.id.startsWith('hilo:'));
    expect(hilo.best_strategy_rtp).toBeTypeOf('number');
    expect(data.batteries.dieharder).toEqual({
      results: shipped.dieharder.results.length,
      passed: shipped.dieharder.passed,
      weak: shipped.dieharder.weak,
      failed: shipped.dieharder.failed,
    });
    expect(data.batteries.nist.tests).toBe(shipped.nist.length);
    // The back office's extras stay out of the public answer.
    expect(data).not.toHaveProperty('lab_still_must');
  });

  it('publishes both routes in the OpenAPI document from the contract schemas', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { host: 'localhost' },
    });
    const paths = response.json().paths;
    const figures = paths['/api/originals/certification'].get;
    expect(Object.keys(figures.responses)).toEqual(expect.arrayContaining(['200', '4XX']));
    expect(figures.parameters.map((p: { name: string }) => p.name)).toContain('game');
    expect(paths['/api/admin/certification'].get.description).toContain('fairness.read');
  });

  it('answers one game with ?game=, and an unknown game with a translated 422', async () => {
    const one = await call(app, { method: 'GET', url: '/api/originals/certification?game=mines' });
    expect(one.status).toBe(200);
    expect(one.body.data.games).toHaveLength(1);
    expect(one.body.data.games[0].game).toBe('mines');
    expect(one.body.data.games[0].modes.length).toBeGreaterThan(1);

    const bad = await call(app, { method: 'GET', url: '/api/originals/certification?game=poker&lang=pt' });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('VALIDATION_FAILED');
    expect(bad.body.errors).toHaveProperty('game');
    const english = await call(app, {
      method: 'GET',
      url: '/api/originals/certification?game=poker&lang=en',
    });
    expect(bad.body.message).not.toBe(english.body.message);
  });

  it('gives the back office the report, the build commit and the web manifest hash (fairness.read)', async () => {
    const token = await loginOperator(app, 'support');
    const { status, body } = await call(app, { method: 'GET', url: '/api/admin/certification', token });
    expect(status).toBe(200);
    expect(body.data.report.commit).toBe(shipped.commit);
    expect(body.data.report.label).toBe(shipped.label);
    expect(body.data.report.lab_still_must).toEqual(shipped.labStillMust);
    expect(body.data.build).toEqual({
      commit: shipped.commit,
      commit_source: 'env',
      dirty: null,
      web_manifest_sha256: createHash('sha256').update(manifest).digest('hex'),
      web_manifest_file: '.vite/manifest.json',
    });
    expect(body.data.commit_matches).toBe(true);

    const content = await loginOperator(app, 'content');
    const forbidden = await call(app, { method: 'GET', url: '/api/admin/certification', token: content });
    expect(forbidden.status).toBe(403);
    const anonymous = await call(app, { method: 'GET', url: '/api/admin/certification' });
    expect(anonymous.status).toBe(401);
  });
});

describe('certification figures when the report is not the shipped one', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const appWith = async (overrides: Parameters<typeof buildTestApp>[1]) => {
    const app = await buildTestApp('pglite', overrides);
    apps.push(app);
    return app;
  };

  it('answers a missing report with a translated 404, never a 500', async () => {
    const app = await appWith({ CERTIFICATION_REPORT_FILE: join(folder, 'absent.json') });
    const { status, body } = await call(app, { method: 'GET', url: '/api/originals/certification?lang=pt' });
    expect(status).toBe(404);
    expect(body.code).toBe('CERTIFICATION_REPORT_MISSING');
    expect(body.message).toBe(translate('pt', 'errors.CERTIFICATION_REPORT_MISSING'));
    const token = await loginOperator(app, 'owner');
    const admin = await call(app, { method: 'GET', url: '/api/admin/certification', token });
    expect(admin.status).toBe(404);
  });

  it('answers a report of another shape as missing too', async () => {
    const path = reportFile('broken.json', (report) => ({ ...report, modes: 'none' }));
    const app = await appWith({ CERTIFICATION_REPORT_FILE: path });
    const { status, body } = await call(app, { method: 'GET', url: '/api/originals/certification' });
    expect(status).toBe(404);
    expect(body.code).toBe('CERTIFICATION_REPORT_MISSING');
  });

  it('flags a build whose commit is not the certified one, and says a full-size run is one', async () => {
    const path = reportFile('full.json', (report) => ({
      ...report,
      commands: ['npm ci', 'npm run certify'],
    }));
    const app = await appWith({
      CERTIFICATION_REPORT_FILE: path,
      BUILD_COMMIT: '0123456789abcdef0123456789abcdef01234567',
      WEB_DIST: join(folder, 'no-web'),
    });
    const figures = await call(app, { method: 'GET', url: '/api/originals/certification?game=dice' });
    expect(figures.body.data.sizes.full_sizes).toBe(true);
    const token = await loginOperator(app, 'owner');
    const { body } = await call(app, { method: 'GET', url: '/api/admin/certification', token });
    expect(body.data.commit_matches).toBe(false);
    expect(body.data.build.web_manifest_sha256).toBeNull();
  });
});
