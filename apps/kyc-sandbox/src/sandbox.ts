import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CAPTURE_SCRIPT, capturePage } from './capture-page.ts';
import { escapeHtml, layout } from './pages.ts';
import { KYC_SIGNATURE_HEADER, signKycWebhook } from './signature.ts';

export interface KycSandboxOptions {
  /** Where state.json keeps the sessions and CPF answers; in memory only when absent. */
  dataDir?: string;
  /** Loopback by default: the tester page has no login. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The address players' browsers reach the capture page at (default: the listening URL). */
  publicUrl?: string;
  /** HTTP Basic credentials the operator's adapter must send on the API. */
  clientId: string;
  clientSecret: string;
  /** HMAC key of the decision webhooks. */
  webhookSecret: string;
  /** Attempts per webhook (first included) and the delay before the first retry (doubling). */
  maxAttempts?: number;
  retryDelayMs?: number;
  logger?: boolean;
}

/** What the CPF lookup answers for a CPF a tester set (any other CPF is regular and matches). */
export type TCpfOutcome = 'regular' | 'irregular' | 'deceased' | 'name_mismatch';
export type TSandboxDecision = 'approve' | 'reject' | 'resubmit' | 'flag_pep' | 'review';
type TStatus = 'created' | 'submitted' | 'manual_review' | 'approved' | 'rejected' | 'resubmission_requested';
type TImageKind = 'document_front' | 'document_back' | 'selfie';

type TSession = {
  id: string;
  reference: string;
  callbackUrl: string;
  returnUrl?: string | null;
  captureToken: string;
  status: TStatus;
  reason: string | null;
  pep: boolean;
  sequence: number;
  createdAt: string;
  updatedAt: string;
};

type TDelivery = { eventId: string; url: string; body: string; attempts: number; lastStatus: number | null };

export interface KycSandbox {
  listen(): Promise<string>;
  close(): Promise<void>;
  /** Sets what the CPF lookup answers for this CPF, as the tester page does. */
  setCpfOutcome(cpf: string, outcome: TCpfOutcome): void;
  /**
   * Sets who the CPF lookup says a CPF belongs to (name and birth date, YYYY-MM-DD); a CPF without
   * one answers a made-up person derived from its digits, and its validation matches any name.
   */
  setCpfPerson(cpf: string, person: { name: string; birthDate: string }): void;
  /** Submits captures for a session (placeholder PNGs unless given), as a player on the capture page would. */
  submitCapture(sessionId: string, files?: Partial<Record<TImageKind, Buffer>>): Promise<void>;
  /** Decides a session as the tester page does; resolves once the webhook's first attempt ended. */
  decide(sessionId: string, decision: TSandboxDecision, reason?: string): Promise<void>;
  /** Every webhook sent, oldest first (raw bodies as signed). */
  deliveries(): readonly TDelivery[];
  readonly app: FastifyInstance;
}

const CPF = /^\d{11}$/;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const MAX_SESSIONS = 5_000;
const MAX_DELIVERIES = 500;
const REASON_MAX = 300;

/** CPF check digits (Receita Federal). */
export function isValidCpf(cpf: string): boolean {
  if (!CPF.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += Number(cpf[i]) * (length + 1 - i);
    const digit = ((sum * 10) % 11) % 10;
    if (digit !== Number(cpf[length])) return false;
  }
  return true;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The file's type read from its first bytes, never from what the browser claimed. */
function sniff(bytes: Buffer): 'image/jpeg' | 'image/png' | 'application/pdf' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

/** A 1×1 PNG: what `submitCapture` sends in place of a photo. */
const PLACEHOLDER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const ZCreate = z.object({
  reference: z.string().min(1).max(100),
  callback_url: z.url().max(2000),
  /** Where the capture page sends the player back once the documents are sent. */
  return_url: z.url().max(2000).optional(),
});
const ZCpfQuery = z.object({
  cpf: z.string().max(20),
  name: z.string().min(1).max(200),
  birth_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
const ZCapture = z.object({
  document_front: z.string().max(12_000_000),
  document_back: z.string().max(12_000_000),
  selfie: z.string().max(12_000_000),
});
const ZDecide = z.object({
  decision: z.enum(['approve', 'reject', 'resubmit', 'flag_pep', 'review']),
  reason: z.string().max(REASON_MAX).optional(),
});
const ZCpfLookup = z.object({ cpf: z.string().max(20) });
const ZCpfPreset = z.object({
  cpf: z.string().max(20),
  outcome: z.enum(['regular', 'irregular', 'deceased', 'name_mismatch']),
});

/** The Receita Federal's wording of each answer (situação cadastral). */
const SITUACAO: Record<TCpfOutcome, string> = {
  regular: 'Regular',
  irregular: 'Suspensa',
  deceased: 'Titular Falecido',
  name_mismatch: 'Regular',
};

/** The session status each tester decision leads to. */
const STATUS_OF: Record<Exclude<TSandboxDecision, 'flag_pep'>, TStatus> = {
  approve: 'approved',
  reject: 'rejected',
  resubmit: 'resubmission_requested',
  // The operator reviews it in its own back office: it fetches the images over the API.
  review: 'manual_review',
};

const FIRST_NAMES = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elisa',
  'Fábio',
  'Gabriela',
  'Heitor',
  'Isabela',
  'João',
];
const LAST_NAMES = [
  'Almeida',
  'Barbosa',
  'Cardoso',
  'Duarte',
  'Esteves',
  'Ferreira',
  'Gomes',
  'Hora',
  'Isidoro',
  'Jesus',
];

/** A made-up person for a CPF nobody set: the same CPF always gives the same name and birth date (over 18). */
function personOf(cpf: string): { name: string; birthDate: string } {
  const d = [...cpf].map(Number);
  const year = 1960 + ((d[0]! * 10 + d[1]!) % 40);
  const month = 1 + ((d[2]! * 10 + d[3]!) % 12);
  const day = 1 + ((d[4]! * 10 + d[5]!) % 28);
  return {
    name: `${FIRST_NAMES[d[6]!]} ${LAST_NAMES[d[7]!]} ${LAST_NAMES[d[8]!]}`,
    birthDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  };
}

const normalizedName = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A local stand-in for a KYC provider: the operator opens a verification session for a member
 * (`POST /v1/sessions`) and sends the player to its hosted capture page (document front and back, a
 * selfie from the camera or a file); a tester decides each session on `/` (approve, reject with a
 * reason, ask to resubmit, flag as politically exposed); every change reaches the operator as a
 * webhook signed with HMAC-SHA256 over the raw body and a timestamp. `POST /v1/cpf/validate`
 * answers a CPF lookup (regular, irregular, deceased, name mismatch) as a tester set it.
 * No real document or liveness check happens here, and its pages say so.
 */
export function createKycSandbox(options: KycSandboxOptions): KycSandbox {
  const host = options.host ?? '127.0.0.1';
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const file = options.dataDir ? join(options.dataDir, 'state.json') : null;
  const sessions = new Map<string, TSession>();
  const cpfOutcomes = new Map<string, TCpfOutcome>();
  const cpfPeople = new Map<string, { name: string; birthDate: string }>();
  // Captured files stay in memory only: a sandbox keeps no one's documents on disk.
  const images = new Map<string, Partial<Record<TImageKind, { type: string; bytes: Buffer }>>>();
  const sent: TDelivery[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let publicUrl = options.publicUrl ?? '';
  if (file && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      sessions?: TSession[];
      cpf?: [string, TCpfOutcome][];
      people?: [string, { name: string; birthDate: string }][];
    };
    for (const session of saved.sessions ?? []) sessions.set(session.id, session);
    for (const [cpf, outcome] of saved.cpf ?? []) cpfOutcomes.set(cpf, outcome);
    for (const [cpf, person] of saved.people ?? []) cpfPeople.set(cpf, person);
  }
  const save = () => {
    if (!file) return;
    mkdirSync(options.dataDir!, { recursive: true });
    writeFileSync(
      file,
      JSON.stringify(
        { sessions: [...sessions.values()], cpf: [...cpfOutcomes], people: [...cpfPeople] },
        null,
        2,
      ),
    );
  };

  const attempt = async (delivery: TDelivery): Promise<void> => {
    delivery.attempts += 1;
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [KYC_SIGNATURE_HEADER]: signKycWebhook(options.webhookSecret, delivery.body, timestamp),
        },
        body: delivery.body,
        signal: AbortSignal.timeout(5_000),
      });
      delivery.lastStatus = response.status;
      await response.arrayBuffer();
      if (response.ok || response.status < 500) return;
    } catch {
      delivery.lastStatus = null;
    }
    if (delivery.attempts >= maxAttempts) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        void attempt(delivery);
      },
      retryDelayMs * 2 ** (delivery.attempts - 1),
    );
    timer.unref();
    timers.add(timer);
  };

  /** Sends the session's state as it is now, with the next sequence number. */
  const notify = async (session: TSession): Promise<void> => {
    session.sequence += 1;
    session.updatedAt = new Date().toISOString();
    save();
    const delivery: TDelivery = {
      eventId: randomUUID(),
      url: session.callbackUrl,
      body: '',
      attempts: 0,
      lastStatus: null,
    };
    delivery.body = JSON.stringify({
      event_id: delivery.eventId,
      type: 'verification.updated',
      session_id: session.id,
      reference: session.reference,
      sequence: session.sequence,
      status: session.status,
      reason: session.reason,
      pep: session.pep,
      occurred_at: session.updatedAt,
    });
    sent.push(delivery);
    if (sent.length > MAX_DELIVERIES) sent.shift();
    await attempt(delivery);
  };

  const sessionOf = (id: string): TSession => {
    const session = sessions.get(id);
    if (!session) throw new SandboxError(404, 'no such session');
    return session;
  };

  const storeCapture = async (session: TSession, files: Record<TImageKind, Buffer>): Promise<void> => {
    if (session.status !== 'created' && session.status !== 'resubmission_requested')
      throw new SandboxError(409, 'this verification is no longer waiting for documents');
    const kept: Partial<Record<TImageKind, { type: string; bytes: Buffer }>> = {};
    for (const kind of ['document_front', 'document_back', 'selfie'] as const) {
      const bytes = files[kind];
      if (bytes.length === 0 || bytes.length > MAX_FILE_BYTES)
        throw new SandboxError(413, `${kind}: a file of at most 8 MB is needed`);
      const type = sniff(bytes);
      if (!type || (kind === 'selfie' && type === 'application/pdf'))
        throw new SandboxError(415, `${kind}: JPEG or PNG${kind === 'selfie' ? '' : ' or PDF'} only`);
      kept[kind] = { type, bytes };
    }
    images.set(session.id, kept);
    session.status = 'submitted';
    session.reason = null;
    await notify(session);
  };

  const decide = async (id: string, decision: TSandboxDecision, reason?: string): Promise<void> => {
    const session = sessionOf(id);
    const why = reason?.trim().slice(0, REASON_MAX) || null;
    if (decision === 'flag_pep') {
      session.pep = true;
      await notify(session);
      return;
    }
    if (session.status !== 'submitted')
      throw new SandboxError(409, 'only a submitted session can be decided');
    if (decision !== 'approve' && decision !== 'review' && !why)
      throw new SandboxError(422, 'a reason is needed');
    session.status = STATUS_OF[decision];
    session.reason = decision === 'approve' || decision === 'review' ? null : why;
    await notify(session);
  };

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 64 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.setErrorHandler((error, _request, reply) => {
    const status =
      error instanceof SandboxError ? error.status : (error as { statusCode?: number }).statusCode;
    const code = status && status >= 400 && status < 500 ? status : 500;
    const message = error instanceof Error ? error.message : 'refused';
    return reply.code(code).send({ error: code === 500 ? 'internal error' : message });
  });

  const authorized = (request: FastifyRequest): boolean => {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(request.headers.authorization ?? '');
    if (!match) return false;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return (
      colon > 0 &&
      sameText(decoded.slice(0, colon), options.clientId) &&
      sameText(decoded.slice(colon + 1), options.clientSecret)
    );
  };
  const view = (session: TSession) => ({
    id: session.id,
    reference: session.reference,
    status: session.status,
    reason: session.reason,
    pep: session.pep,
    sequence: session.sequence,
    capture_url: `${publicUrl}/capture/${session.captureToken}`,
    created_at: session.createdAt,
  });

  // The operator's API.
  app.post('/v1/sessions', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({ error: 'invalid credentials' });
    const input = ZCreate.safeParse(request.body);
    if (!input.success) return reply.code(400).send({ error: 'reference and callback_url are required' });
    if (sessions.size >= MAX_SESSIONS) return reply.code(507).send({ error: 'sandbox full' });
    const now = new Date().toISOString();
    const session: TSession = {
      id: `kys_${randomBytes(12).toString('hex')}`,
      reference: input.data.reference,
      callbackUrl: input.data.callback_url,
      returnUrl: /^https?:\/\//.test(input.data.return_url ?? '') ? input.data.return_url! : null,
      captureToken: randomBytes(18).toString('base64url'),
      status: 'created',
      reason: null,
      pep: false,
      sequence: 0,
      createdAt: now,
      updatedAt: now,
    };
    sessions.set(session.id, session);
    save();
    return reply.code(201).send(view(session));
  });
  app.get<{ Params: { id: string } }>('/v1/sessions/:id', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({ error: 'invalid credentials' });
    return view(sessionOf(request.params.id));
  });
  app.post('/v1/cpf/validate', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({ error: 'invalid credentials' });
    const input = ZCpfQuery.safeParse(request.body);
    if (!input.success) return reply.code(400).send({ error: 'cpf, name and birth_date are required' });
    const cpf = input.data.cpf.replace(/\D/g, '');
    if (!isValidCpf(cpf)) return reply.code(400).send({ error: 'CPF inválido' });
    const outcome = cpfOutcomes.get(cpf) ?? 'regular';
    const person = cpfPeople.get(cpf);
    return {
      cpf,
      situacao: SITUACAO[outcome],
      name_matches:
        outcome !== 'name_mismatch' &&
        (!person || normalizedName(person.name) === normalizedName(input.data.name)),
      birth_date_matches: !person || person.birthDate === input.data.birth_date,
      consultado_em: new Date().toISOString(),
    };
  });
  providerDataRoutes(app, { authorized, sessionOf, images, cpfOutcomes, cpfPeople });

  // The player's hosted capture page: the token in the link is its only key.
  const byToken = (token: string): TSession | null =>
    [...sessions.values()].find((session) => sameText(session.captureToken, token)) ?? null;
  app.get<{ Params: { token: string } }>('/capture/:token', async (request, reply) => {
    const session = byToken(request.params.token);
    if (!session)
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(layout('Not found', '<div class="card error">This verification link is not valid.</div>'));
    return reply
      .type('text/html; charset=utf-8')
      .send(layout('Verify your identity', capturePage(session), CAPTURE_SCRIPT));
  });
  app.post<{ Params: { token: string } }>(
    '/capture/:token',
    { bodyLimit: 3 * 12_000_000 + 4_096 },
    async (request, reply) => {
      const session = byToken(request.params.token);
      if (!session) return reply.code(404).send({ error: 'no such verification' });
      const input = ZCapture.safeParse(request.body);
      if (!input.success) return reply.code(400).send({ error: 'three files are needed' });
      const decode = (dataUrl: string) =>
        Buffer.from(/^data:[^;,]*;base64,([A-Za-z0-9+/=]*)$/.exec(dataUrl)?.[1] ?? '', 'base64');
      await storeCapture(session, {
        document_front: decode(input.data.document_front),
        document_back: decode(input.data.document_back),
        selfie: decode(input.data.selfie),
      });
      return { status: session.status };
    },
  );

  // The tester's page.
  const testerPage = (reply: FastifyReply, notice = '') =>
    reply
      .type('text/html; charset=utf-8')
      .send(layout('KYC sandbox', testerPageBody({ sessions, images, cpfOutcomes, sent }, notice)));
  app.get('/', async (_request, reply) => testerPage(reply));
  app.post<{ Params: { id: string } }>('/sessions/:id/decide', async (request, reply) => {
    const input = ZDecide.safeParse(request.body);
    if (!input.success) return testerPage(reply.code(400), '<div class="card error">Unknown decision.</div>');
    try {
      await decide(request.params.id, input.data.decision, input.data.reason);
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      return testerPage(
        reply.code(error.status),
        `<div class="card error">${escapeHtml(error.message)}</div>`,
      );
    }
    return reply.redirect('/', 303);
  });
  app.get<{ Params: { id: string; kind: string } }>('/sessions/:id/images/:kind', async (request, reply) => {
    const kind = request.params.kind as TImageKind;
    const image = images.get(request.params.id)?.[kind];
    if (!image) return reply.code(404).send({ error: 'no such image' });
    return reply.type(image.type).header('cache-control', 'no-store').send(image.bytes);
  });
  app.post('/cpf', async (request, reply) => {
    const input = ZCpfPreset.safeParse(request.body);
    const cpf = input.success ? input.data.cpf.replace(/\D/g, '') : '';
    if (!input.success || !isValidCpf(cpf))
      return testerPage(reply.code(400), '<div class="card error">That CPF is not valid.</div>');
    cpfOutcomes.set(cpf, input.data.outcome);
    save();
    return reply.redirect('/', 303);
  });

  return {
    app,
    setCpfOutcome(cpf, outcome) {
      cpfOutcomes.set(cpf, outcome);
      save();
    },
    setCpfPerson(cpf, person) {
      cpfPeople.set(cpf, person);
      save();
    },
    submitCapture: (sessionId, files = {}) =>
      storeCapture(sessionOf(sessionId), {
        document_front: files.document_front ?? PLACEHOLDER_PNG,
        document_back: files.document_back ?? PLACEHOLDER_PNG,
        selfie: files.selfie ?? PLACEHOLDER_PNG,
      }),
    decide,
    deliveries: () => sent,
    async listen() {
      const url = (await app.listen({ host, port: options.port ?? 0 })).replace('localhost', host);
      if (!options.publicUrl) publicUrl = url;
      return url;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await app.close();
    },
  };
}

type TImages = Map<string, Partial<Record<TImageKind, { type: string; bytes: Buffer }>>>;

/**
 * The provider's data behind its API: who a CPF belongs to, and the images of a session.
 */
function providerDataRoutes(
  app: FastifyInstance,
  state: {
    authorized: (request: FastifyRequest) => boolean;
    sessionOf: (id: string) => TSession;
    images: TImages;
    cpfOutcomes: Map<string, TCpfOutcome>;
    cpfPeople: Map<string, { name: string; birthDate: string }>;
  },
): void {
  const { authorized, sessionOf, images, cpfOutcomes, cpfPeople } = state;
  // Who a CPF belongs to, as a registry lookup answers it (name and birth date): what a sign-up
  // form prefills. A CPF nobody set answers a made-up person derived from its digits.
  app.post('/v1/cpf/lookup', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({ error: 'invalid credentials' });
    const input = ZCpfLookup.safeParse(request.body);
    const cpf = input.success ? input.data.cpf.replace(/\D/g, '') : '';
    if (!isValidCpf(cpf)) return reply.code(400).send({ error: 'CPF inválido' });
    const outcome = cpfOutcomes.get(cpf) ?? 'regular';
    const person = cpfPeople.get(cpf) ?? personOf(cpf);
    return {
      cpf,
      situacao: SITUACAO[outcome],
      nome: person.name,
      data_nascimento: person.birthDate,
      consultado_em: new Date().toISOString(),
    };
  });
  // The images of a session, for the operator's own review (as Sumsub's and idwall's APIs hand
  // them over): a list, then each file by its kind. Only over the authenticated API.
  app.get<{ Params: { id: string } }>('/v1/sessions/:id/documents', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({ error: 'invalid credentials' });
    const session = sessionOf(request.params.id);
    const kept = images.get(session.id) ?? {};
    return {
      session_id: session.id,
      documents: (['document_front', 'document_back', 'selfie'] as const)
        .filter((kind) => kept[kind])
        .map((kind) => ({ kind, content_type: kept[kind]!.type, size: kept[kind]!.bytes.length })),
    };
  });
  app.get<{ Params: { id: string; kind: string } }>(
    '/v1/sessions/:id/documents/:kind',
    async (request, reply) => {
      if (!authorized(request)) return reply.code(401).send({ error: 'invalid credentials' });
      const image = images.get(sessionOf(request.params.id).id)?.[request.params.kind as TImageKind];
      if (!image) return reply.code(404).send({ error: 'no such document' });
      return reply.type(image.type).header('cache-control', 'no-store').send(image.bytes);
    },
  );
}

/**
 * The tester's page: the last hundred sessions with their captures and the decisions they allow,
 * the CPF answers set, the last webhooks sent.
 */
function testerPageBody(
  state: {
    sessions: Map<string, TSession>;
    images: TImages;
    cpfOutcomes: Map<string, TCpfOutcome>;
    sent: readonly TDelivery[];
  },
  notice: string,
): string {
  const { sessions, images, cpfOutcomes, sent } = state;
  const rows = [...sessions.values()]
    .reverse()
    .slice(0, 100)
    .map((session) => {
      const kept = images.get(session.id) ?? {};
      const thumbs = (['document_front', 'document_back', 'selfie'] as const)
        .filter((kind) => kept[kind])
        .map((kind) =>
          kept[kind]!.type === 'application/pdf'
            ? `<a href="/sessions/${session.id}/images/${kind}">${kind} (PDF)</a>`
            : `<img alt="${kind}" src="/sessions/${session.id}/images/${kind}">`,
        )
        .join('');
      const id = escapeHtml(session.id);
      const button = (decision: TSandboxDecision, label: string, style: string, withReason: boolean) =>
        `<form method="post" action="/sessions/${id}/decide" class="row">
<input type="hidden" name="decision" value="${decision}">${withReason ? '<input name="reason" placeholder="Reason" maxlength="300" required style="flex:1;min-width:160px">' : ''}
<button class="small ${style}" type="submit" data-testid="decide-${decision}">${label}</button></form>`;
      return `<div class="card" data-testid="kyc-session" data-reference="${escapeHtml(session.reference)}"><div class="row"><b>${id}</b><span class="muted">member ${escapeHtml(session.reference)}</span></div>
<p>Status: <b>${escapeHtml(session.status)}</b>${session.reason ? ` · ${escapeHtml(session.reason)}` : ''}${session.pep ? ' · <b>PEP</b>' : ''}
<span class="muted">· event ${session.sequence}</span></p>
<div class="thumbs">${thumbs || '<span class="muted">No capture yet.</span>'}</div>
${session.status === 'submitted' ? `${button('approve', 'Approve', 'primary', false)}${button('reject', 'Reject', 'danger', true)}${button('resubmit', 'Ask to resubmit', 'secondary', true)}${button('review', 'Send to manual review (operator)', 'secondary', false)}` : ''}
${session.pep ? '' : button('flag_pep', 'Flag as politically exposed person', 'secondary', false)}</div>`;
    })
    .join('');
  const presets = [...cpfOutcomes]
    .map(([cpf, outcome]) => `<tr><td>${escapeHtml(cpf)}</td><td>${escapeHtml(outcome)}</td></tr>`)
    .join('');
  const log = sent
    .slice(-10)
    .reverse()
    .map(
      (delivery) =>
        `<tr><td class="muted">${escapeHtml(delivery.eventId.slice(0, 8))}</td><td>${escapeHtml(JSON.parse(delivery.body).status)}</td><td>${delivery.lastStatus ?? 'no answer'} (${delivery.attempts}×)</td></tr>`,
    )
    .join('');
  const body = `${notice}<div class="card"><h1>KYC provider (sandbox)</h1>
<p class="notice">A sandbox: no document, face or liveness check happens here. You decide each verification.</p></div>
${rows || '<div class="card muted">No verification sessions yet.</div>'}
<div class="card"><h2>CPF lookup answers</h2><p class="muted">Any other valid CPF answers regular, name and birth date matching.</p>
<form method="post" action="/cpf"><label for="cpf">CPF</label><input id="cpf" name="cpf" inputmode="numeric" maxlength="14" required>
<label for="outcome">Answer</label><select id="outcome" name="outcome"><option value="regular">Regular</option><option value="irregular">Irregular (Suspensa)</option><option value="deceased">Deceased (Titular Falecido)</option><option value="name_mismatch">Name does not match</option></select>
<button class="primary" type="submit">Set answer</button></form>
${presets ? `<table><tr><th>CPF</th><th>Answer</th></tr>${presets}</table>` : ''}</div>
<div class="card"><h2>Last webhooks</h2>${log ? `<table><tr><th>Event</th><th>Status</th><th>Answer</th></tr>${log}</table>` : '<p class="muted">None.</p>'}</div>`;
  return body;
}
