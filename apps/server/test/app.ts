import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app.ts';
import { type TConfig, testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { operators } from '../src/modules/admin/admin.schema.ts';
import type { TOperatorRole } from '../src/modules/admin/permissions.ts';
import { verifyAsRequired } from '../src/modules/kyc/kyc.service.ts';
import { connectRegistry } from '../src/modules/responsible-gaming/registry.connection.ts';
import { currentTotpCode } from '../src/modules/security/totp.ts';
import { hashSecret } from '../src/modules/sessions/passwords.ts';
import { transfer } from '../src/modules/wallet/wallet.service.ts';
import { DEMO_OPERATOR, seedDemoData } from '../src/seed/demo-data.ts';
import { type DatabaseKind, testDatabase } from './databases.ts';

/** Every captcha the test app draws shows this text, so tests can answer (or miss) it. */
export const CAPTCHA_TEXT = 'Ab3d';

const seeded = new Map<Database, Promise<void>>();

/** The shared migrated database of this kind, with the demo sites, players and operators in it. */
export async function seededDatabase(kind: DatabaseKind): Promise<Database> {
  const database = await testDatabase(kind);
  let seeding = seeded.get(database);
  if (!seeding) {
    seeding = seedDemoData(database.db);
    seeded.set(database, seeding);
  }
  await seeding;
  return database;
}

let registrySandbox: ReturnType<typeof connectRegistry> | null = null;

/**
 * The self-exclusion registry sandbox of this test process (in memory, loopback, a free port),
 * attached to every test app; `add(cpf)` impedes a CPF as a citizen would on the national platform.
 */
export async function testRegistry() {
  registrySandbox ??= connectRegistry({}, { sandboxPort: 0 }).then((connection) => {
    connection.sandbox?.app.server.unref();
    return connection;
  });
  const connection = await registrySandbox;
  return {
    connection,
    add: (cpf: string) => connection.sandbox!.add(cpf),
    remove: (cpf: string) => connection.sandbox!.remove(cpf),
  };
}

/** The real app on a seeded test database, with a captcha generator whose answer is CAPTCHA_TEXT. */
export async function buildTestApp(
  kind: DatabaseKind,
  overrides: Partial<TConfig> = {},
): Promise<FastifyInstance> {
  const database = await seededDatabase(kind);
  const app = await buildApp({
    config: testConfig(overrides),
    database,
    captchaGenerator: () => ({ text: CAPTCHA_TEXT, svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
  });
  await app.ready();
  const { connection } = await testRegistry();
  // Shared by the process's apps: closing one app leaves the sandbox to the others.
  app.registry.attach({ ...connection, close: async () => undefined });
  return app;
}

let counter = 0;
/** A username no other test (or earlier run on the same database) has used. */
export function uniqueUsername(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid.toString(36)}${counter}`.slice(0, 20);
}

export const HOSTS = { intl: 'localhost', br: 'br.localhost' } as const;

export type TEnvelope = {
  status: 'success' | 'fail';
  code: number | string;
  message: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response data loosely and assert on it.
  data: any;
  errors?: Record<string, string>;
  force_offline?: boolean;
  idle_minutes?: number;
  retry_after?: number;
};

/** app.inject with the Host header and an optional bearer token; returns status and parsed body. */
export async function call(
  app: FastifyInstance,
  options: InjectOptions & { host?: string; token?: string | undefined },
): Promise<{ status: number; body: TEnvelope; headers: Record<string, unknown> }> {
  const { host = HOSTS.intl, token, headers = {}, ...rest } = options;
  const response = await app.inject({
    ...rest,
    headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  let body: TEnvelope;
  try {
    body = response.json();
  } catch {
    body = { status: 'fail', code: 'NOT_JSON', message: response.body, data: null };
  }
  return { status: response.statusCode, body, headers: response.headers };
}

/** A fresh captcha on `host`, answered correctly. */
export async function solvedCaptcha(app: FastifyInstance, host: string = HOSTS.intl) {
  const { body } = await call(app, { method: 'POST', url: '/api/auth/captcha', host });
  return { captcha_id: body.data.captcha_id as string, captcha_code: CAPTCHA_TEXT };
}

/** A valid registration body with a unique username (override any field). */
export function registration(overrides: Record<string, unknown> = {}) {
  return {
    username: uniqueUsername(),
    password: 'secret123',
    password_confirmation: 'secret123',
    realname: 'Maria Silva',
    phone: '11987654321',
    qk_pwd: '654321',
    agree_terms: true,
    is_adult: true,
    ...overrides,
  };
}

/** A valid CPF built from 9 random digits (check digits computed). */
export function randomCpf(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (digits.every((d) => d === digits[0])) digits[0] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

/**
 * What the br profile adds to a sign-up: a fresh CPF, an adult's date of birth and the mandatory
 * loss and session-time limits (wide enough that no other test meets them).
 */
export function brRegistration() {
  return {
    cpf: randomCpf(),
    birth_date: '1990-05-17',
    limits: [
      { kind: 'loss', period: 'month', value: '10000000' },
      { kind: 'session_time', period: 'day', value: '1440' },
    ],
  };
}

/**
 * Registers a new player on `host` (captcha solved) and returns the token and user. The player has
 * passed the identity checks the site's KYC rules require (as the demo accounts have), unless
 * `verified: false`: tests of other features deposit, bet and withdraw without a verification flow.
 */
export async function registerPlayer(
  app: FastifyInstance,
  host: string = HOSTS.intl,
  overrides: Record<string, unknown> = {},
  options: { verified?: boolean } = {},
) {
  const body: ReturnType<typeof registration> & { cpf?: string; birth_date?: string } = {
    ...registration(host === HOSTS.br ? { ...brRegistration(), ...overrides } : overrides),
    ...(await solvedCaptcha(app, host)),
  };
  const response = await call(app, { method: 'POST', url: '/api/auth/register2', host, payload: body });
  if (response.status !== 200) throw new Error(`registration failed: ${JSON.stringify(response.body)}`);
  if (options.verified !== false) {
    const site = await app.services.sites.byHost(host);
    if (!site) throw new Error(`no site for ${host}`);
    await verifyAsRequired(app.services.db, site, BigInt(response.body.data.user.id), 'seed');
  }
  return { token: response.body.data.token as string, user: response.body.data.user, input: body };
}

/**
 * A new member with a session and `fundMinor` of cash, deposited from the PSP clearing account as
 * a paid PIX deposit would (the registration's site: `host`).
 */
export async function fundedPlayer(app: FastifyInstance, fundMinor: bigint, host: string = HOSTS.intl) {
  const registered = await registerPlayer(app, host);
  const memberId = BigInt(registered.user.id);
  if (fundMinor > 0n) {
    const site = await app.services.sites.byHost(host);
    if (!site) throw new Error(`no site for ${host}`);
    await transfer(app.services.db, {
      siteId: site.id,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: fundMinor,
      idempotencyKey: `test-fund:${randomUUID()}`,
    });
  }
  return { token: registered.token, memberId, user: registered.user };
}

/**
 * Forgets the last authenticator step an operator used. A code is good once (RFC 6238 §5.2), and
 * tests sign the same operator in many times within one 30-second step: each such sign-in starts
 * as if the operator's last code were from an earlier step. Replays are tested in totp-replay.int.
 */
export async function forgetOperatorTotpStep(
  app: FastifyInstance,
  username: string,
  siteHost: string = HOSTS.intl,
): Promise<void> {
  const site = await app.services.sites.byHost(siteHost);
  if (!site) throw new Error(`no site for ${siteHost}`);
  await app.services.db
    .update(operators)
    .set({ totpLastStep: null })
    .where(and(eq(operators.siteId, site.id), eq(operators.usernameLower, username.toLowerCase())));
}

/** Password and authenticator secret of the operators loginOperator creates. */
export const TEST_OPERATOR = {
  password: 'operator-pass-2026',
  totpSecret: 'SORTETESTOPERATORTOTPSECRETKEYAB',
};

/**
 * Signs an operator of `role` in on the site of `siteHost` (password + current TOTP code) and
 * returns the bearer token. owner: the demo owner (DEMO_OPERATOR); other roles: "qa_<role>",
 * created on first use with TEST_OPERATOR's password and secret. `username` names another operator
 * of that role (e.g. a second owner for two-person approval), created the same way.
 */
export async function loginOperator(
  app: FastifyInstance,
  role: TOperatorRole = 'owner',
  siteHost: string = HOSTS.intl,
  username?: string,
): Promise<string> {
  const site = await app.services.sites.byHost(siteHost);
  if (!site) throw new Error(`no site for ${siteHost}`);
  let credentials: { username: string; password: string; totpSecret: string } = DEMO_OPERATOR;
  if (role !== 'owner' || username) {
    credentials = { username: username ?? `qa_${role}`, ...TEST_OPERATOR };
    await app.services.db
      .insert(operators)
      .values({
        siteId: site.id,
        username: credentials.username,
        passwordHash: await hashSecret(credentials.password),
        role,
        status: 1,
        totpSecret: credentials.totpSecret,
      })
      .onConflictDoNothing();
  }
  const login = async () => {
    await forgetOperatorTotpStep(app, credentials.username, siteHost);
    return call(app, {
      method: 'POST',
      url: '/api/admin/auth/login',
      host: siteHost,
      payload: {
        username: credentials.username,
        password: credentials.password,
        totp_code: await currentTotpCode(credentials.totpSecret),
      },
    });
  };
  // One sign-in of an operator at a time, so parallel callers do not spend each other's code.
  const key = `${siteHost}:${credentials.username}`;
  const turn = (operatorLogins.get(key) ?? Promise.resolve()).then(login);
  operatorLogins.set(
    key,
    turn.then(
      () => undefined,
      () => undefined,
    ),
  );
  const response = await turn;
  if (response.status !== 200) throw new Error(`operator login failed: ${JSON.stringify(response.body)}`);
  return response.body.data.token as string;
}

const operatorLogins = new Map<string, Promise<void>>();
