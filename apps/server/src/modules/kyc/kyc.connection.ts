import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createKycSandbox } from '@sorte/kyc-sandbox';
import { z } from 'zod';
import { AppError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The KYC provider; attached by server.ts (or a test) once it is reachable. */
    kyc: KycGateway;
  }
}

/**
 * How the server reaches the KYC (identity verification) provider. With KYC_BASE_URL,
 * KYC_CLIENT_ID, KYC_CLIENT_SECRET and KYC_WEBHOOK_SECRET it talks to that provider; with none of
 * them it starts the local KYC sandbox on loopback (its tester page decides each verification) and
 * talks to it over HTTP exactly the same way, with credentials made up for the run.
 */
export interface KycSettings {
  baseUrl?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  webhookSecret?: string | undefined;
}

/** The Receita Federal's answer for a CPF, and whether the name and birth date we sent match it. */
export type TCpfAnswer = { situacao: string; nameMatches: boolean; birthDateMatches: boolean };
export type TProviderSession = { id: string; captureUrl: string };
/** Who the Receita Federal says a CPF belongs to (a lookup by CPF alone). */
export type TCpfPerson = { situacao: string; name: string; birthDate: string };
/** A file the provider holds for a session; `contentType` is the provider's claim, never trusted. */
export type TProviderDocument = { kind: string; contentType: string; size: number };

/** The most a document may weigh (issue 36 §1); a larger one is refused while it is read. */
export const MAX_KYC_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** A file the provider sent that exceeds MAX_KYC_DOCUMENT_BYTES: nothing of it is kept. */
export class DocumentTooLarge extends Error {
  override name = 'DocumentTooLarge';
}

export interface KycConnection {
  /** Our name for the provider, stored with each session and webhook event. */
  provider: string;
  /**
   * Opens a verification session (document + selfie) for `reference` (our member id); the
   * capture page sends the player back to `returnUrl`.
   */
  createSession(reference: string, callbackUrl: string, returnUrl: string): Promise<TProviderSession>;
  validateCpf(input: { cpf: string; name: string; birthDate: string }): Promise<TCpfAnswer>;
  /** Who a CPF belongs to (name and birth date): what a sign-up form prefills. */
  lookupCpf(cpf: string): Promise<TCpfPerson>;
  /** The files the provider holds for one of its sessions (a session sent to manual review). */
  listDocuments(providerSessionId: string): Promise<TProviderDocument[]>;
  /** One file's bytes, at most MAX_KYC_DOCUMENT_BYTES (else DocumentTooLarge). */
  fetchDocument(providerSessionId: string, kind: string): Promise<Buffer>;
  /** The HMAC key the provider signs its webhooks with. */
  webhookSecret: string;
  /** The sandbox's tester page, or null for a real provider. */
  sandboxUrl: string | null;
  close(): Promise<void>;
}

export const DEFAULT_KYC_SANDBOX_PORT = 4040;
const TIMEOUT_MS = 10_000;

const ZSessionAnswer = z.object({ id: z.string().min(1).max(100), capture_url: z.url().max(2000) });
const ZCpfPerson = z.object({
  cpf: z.string(),
  situacao: z.string().min(1).max(60),
  nome: z.string().min(1).max(200),
  data_nascimento: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
const ZDocuments = z.object({
  documents: z
    .array(
      z.object({
        kind: z.string().min(1).max(40),
        content_type: z.string().max(100),
        size: z.number().int().min(0),
      }),
    )
    .max(20),
});
const ZCpfAnswer = z.object({
  cpf: z.string(),
  situacao: z.string().min(1).max(60),
  name_matches: z.boolean(),
  birth_date_matches: z.boolean(),
});

function httpProvider(baseUrl: string, clientId: string, clientSecret: string) {
  const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const root = baseUrl.replace(/\/+$/, '');
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const response = await fetch(`${root}${path}`, {
      method: 'POST',
      headers: { authorization, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`KYC provider answered ${response.status} on ${path}`);
    return response.json();
  };
  const get = (path: string, accept: string) =>
    fetch(`${root}${path}`, {
      headers: { authorization, accept },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  const session = (id: string) => `/v1/sessions/${encodeURIComponent(id)}`;
  return {
    async createSession(
      reference: string,
      callbackUrl: string,
      returnUrl: string,
    ): Promise<TProviderSession> {
      const answer = ZSessionAnswer.parse(
        await post('/v1/sessions', { reference, callback_url: callbackUrl, return_url: returnUrl }),
      );
      return { id: answer.id, captureUrl: answer.capture_url };
    },
    async validateCpf(input: { cpf: string; name: string; birthDate: string }): Promise<TCpfAnswer> {
      const answer = ZCpfAnswer.parse(
        await post('/v1/cpf/validate', { cpf: input.cpf, name: input.name, birth_date: input.birthDate }),
      );
      if (answer.cpf !== input.cpf) throw new Error('the KYC provider answered for another CPF');
      return {
        situacao: answer.situacao,
        nameMatches: answer.name_matches,
        birthDateMatches: answer.birth_date_matches,
      };
    },
    async lookupCpf(cpf: string): Promise<TCpfPerson> {
      const answer = ZCpfPerson.parse(await post('/v1/cpf/lookup', { cpf }));
      if (answer.cpf !== cpf) throw new Error('the KYC provider answered for another CPF');
      return { situacao: answer.situacao, name: answer.nome, birthDate: answer.data_nascimento };
    },
    async listDocuments(providerSessionId: string): Promise<TProviderDocument[]> {
      const response = await get(`${session(providerSessionId)}/documents`, 'application/json');
      if (!response.ok) throw new Error(`KYC provider answered ${response.status} on its documents`);
      return ZDocuments.parse(await response.json()).documents.map((document) => ({
        kind: document.kind,
        contentType: document.content_type,
        size: document.size,
      }));
    },
    async fetchDocument(providerSessionId: string, kind: string): Promise<Buffer> {
      const response = await get(
        `${session(providerSessionId)}/documents/${encodeURIComponent(kind)}`,
        '*/*',
      );
      if (!response.ok) throw new Error(`KYC provider answered ${response.status} on a document`);
      return readAtMost(response, MAX_KYC_DOCUMENT_BYTES);
    },
  };
}

/** A response body of at most `maxBytes`, read as it streams: a larger one stops at the limit. */
export async function readAtMost(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new DocumentTooLarge(`the document declares ${declared} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new DocumentTooLarge('the document is larger than allowed');
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

export async function connectKyc(
  settings: KycSettings,
  options: { dataDir?: string; sandboxPort?: number; sandboxWebhookSecret?: string | undefined } = {},
): Promise<KycConnection & { sandbox?: ReturnType<typeof createKycSandbox> }> {
  const values = [settings.baseUrl, settings.clientId, settings.clientSecret, settings.webhookSecret];
  const given = values.filter(Boolean).length;
  if (given === 4) {
    return {
      provider: new URL(settings.baseUrl!).host.slice(0, 40),
      ...httpProvider(settings.baseUrl!, settings.clientId!, settings.clientSecret!),
      webhookSecret: settings.webhookSecret!,
      sandboxUrl: null,
      close: async () => undefined,
    };
  }
  if (given > 0) {
    throw new Error(
      'KYC provider configuration is incomplete: set KYC_BASE_URL, KYC_CLIENT_ID, KYC_CLIENT_SECRET and KYC_WEBHOOK_SECRET (or none for the sandbox)',
    );
  }
  const clientId = `sorte-${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const webhookSecret = options.sandboxWebhookSecret ?? randomBytes(32).toString('base64url');
  const sandbox = createKycSandbox({
    host: '127.0.0.1',
    port: options.sandboxPort ?? DEFAULT_KYC_SANDBOX_PORT,
    ...(options.dataDir ? { dataDir: join(options.dataDir, 'kyc-sandbox') } : {}),
    clientId,
    clientSecret,
    webhookSecret,
  });
  const url = await sandbox.listen();
  return {
    provider: 'sandbox',
    ...httpProvider(url, clientId, clientSecret),
    webhookSecret,
    sandboxUrl: url,
    sandbox,
    close: () => sandbox.close(),
  };
}

/**
 * Late-bound access to the provider, like the PSP and the registry: until a connection is attached
 * (or when a call fails) starting a verification answers KYC_PROVIDER_UNAVAILABLE and changes nothing.
 */
export class KycGateway {
  private current: KycConnection | null = null;
  /** Where the provider must send its decisions; set with the connection. */
  callbackUrl = '';

  attach(connection: KycConnection, callbackUrl: string): void {
    this.current = connection;
    this.callbackUrl = callbackUrl;
  }

  get attached(): KycConnection | null {
    return this.current;
  }

  private connection(): KycConnection {
    if (!this.current) throw new AppError('KYC_PROVIDER_UNAVAILABLE');
    return this.current;
  }

  async createSession(
    reference: string,
    returnUrl: string,
  ): Promise<TProviderSession & { provider: string }> {
    const connection = this.connection();
    try {
      return {
        ...(await connection.createSession(reference, this.callbackUrl, returnUrl)),
        provider: connection.provider,
      };
    } catch (error) {
      throw new AppError('KYC_PROVIDER_UNAVAILABLE', { cause: error });
    }
  }

  async validateCpf(input: { cpf: string; name: string; birthDate: string }): Promise<TCpfAnswer> {
    const connection = this.connection();
    try {
      return await connection.validateCpf(input);
    } catch (error) {
      throw new AppError('KYC_PROVIDER_UNAVAILABLE', { cause: error });
    }
  }

  async lookupCpf(cpf: string): Promise<TCpfPerson> {
    const connection = this.connection();
    try {
      return await connection.lookupCpf(cpf);
    } catch (error) {
      throw new AppError('KYC_PROVIDER_UNAVAILABLE', { cause: error });
    }
  }

  async close(): Promise<void> {
    const connection = this.current;
    this.current = null;
    await connection?.close();
  }
}

/** Where the provider calls back: configured, else the public address, else (sandbox) loopback. */
export function kycWebhookUrl(input: {
  configured?: string | undefined;
  publicBaseUrl?: string | undefined;
  port: number;
  realProvider: boolean;
}): string {
  const base = input.publicBaseUrl?.replace(/\/+$/, '');
  const url = input.configured ?? (base ? `${base}/api/kyc/webhook` : null);
  if (url) {
    if (input.realProvider && !url.startsWith('https://'))
      throw new Error('KYC_WEBHOOK_URL (or PUBLIC_BASE_URL) must be https for a real KYC provider');
    return url;
  }
  if (input.realProvider)
    throw new Error('a real KYC provider needs PUBLIC_BASE_URL (https) or KYC_WEBHOOK_URL');
  return `http://127.0.0.1:${input.port}/api/kyc/webhook`;
}
