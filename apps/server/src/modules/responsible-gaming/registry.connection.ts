import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createRegistry } from '@sorte/self-exclusion-registry';
import { z } from 'zod';
import { AppError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The national self-exclusion registry; attached by server.ts (or a test) once it is reachable. */
    registry: RegistryGateway;
  }
}

/**
 * How the server reaches the national self-exclusion registry (SIGAP, IN SPA 31/2025). With
 * SELF_EXCLUSION_REGISTRY_URL, SELF_EXCLUSION_CLIENT_ID and SELF_EXCLUSION_CLIENT_SECRET it asks
 * that service; with none of them it starts the local registry sandbox on loopback (its page adds
 * or removes a CPF) and asks it over HTTP exactly the same way, with credentials made up for the run.
 */
export interface RegistrySettings {
  baseUrl?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
}

export interface RegistryConnection {
  /** True when the CPF (11 digits) is impeded ("Impedido"); throws when there is no clear answer. */
  isImpeded(cpf: string): Promise<boolean>;
  /** The sandbox page, or null for the real registry. */
  sandboxUrl: string | null;
  close(): Promise<void>;
}

export const DEFAULT_REGISTRY_SANDBOX_PORT = 4030;
const TIMEOUT_MS = 5_000;

const ZAnswer = z.object({ cpf: z.string(), situacao: z.enum(['Impedido', 'Não Impedido']) });

function httpRegistry(baseUrl: string, clientId: string, clientSecret: string) {
  const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const root = baseUrl.replace(/\/+$/, '');
  return async (cpf: string): Promise<boolean> => {
    const response = await fetch(`${root}/v1/consulta/${encodeURIComponent(cpf)}`, {
      headers: { authorization, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`registry answered ${response.status}`);
    const answer = ZAnswer.parse(await response.json());
    if (answer.cpf !== cpf) throw new Error('registry answered for another CPF');
    return answer.situacao === 'Impedido';
  };
}

export async function connectRegistry(
  settings: RegistrySettings,
  options: { dataDir?: string; sandboxPort?: number } = {},
): Promise<RegistryConnection & { sandbox?: ReturnType<typeof createRegistry> }> {
  const given = [settings.baseUrl, settings.clientId, settings.clientSecret].filter(Boolean).length;
  if (given === 3) {
    return {
      isImpeded: httpRegistry(settings.baseUrl!, settings.clientId!, settings.clientSecret!),
      sandboxUrl: null,
      close: async () => undefined,
    };
  }
  if (given > 0) {
    throw new Error(
      'Self-exclusion registry configuration is incomplete: set SELF_EXCLUSION_REGISTRY_URL, SELF_EXCLUSION_CLIENT_ID and SELF_EXCLUSION_CLIENT_SECRET (or none for the sandbox)',
    );
  }
  const clientId = `sorte-${randomBytes(6).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const sandbox = createRegistry({
    host: '127.0.0.1',
    port: options.sandboxPort ?? DEFAULT_REGISTRY_SANDBOX_PORT,
    ...(options.dataDir ? { dataDir: join(options.dataDir, 'self-exclusion-registry') } : {}),
    clientId,
    clientSecret,
  });
  const url = await sandbox.listen();
  return {
    isImpeded: httpRegistry(url, clientId, clientSecret),
    sandboxUrl: url,
    sandbox,
    close: () => sandbox.close(),
  };
}

/**
 * Late-bound access to the registry, like the PSP: until a connection is attached (or when it
 * fails) a check answers REGISTRY_UNAVAILABLE, and a sign-up that needs it creates nothing.
 */
export class RegistryGateway {
  private current: RegistryConnection | null = null;
  private readonly closers: (() => void)[] = [];

  attach(connection: RegistryConnection): void {
    this.current = connection;
  }

  get attached(): RegistryConnection | null {
    return this.current;
  }

  /** The registry's answer for this CPF, or REGISTRY_UNAVAILABLE. */
  async isImpeded(cpf: string): Promise<boolean> {
    const connection = this.current;
    if (!connection) throw new AppError('REGISTRY_UNAVAILABLE');
    try {
      return await connection.isImpeded(cpf);
    } catch {
      throw new AppError('REGISTRY_UNAVAILABLE');
    }
  }

  /** Runs `stop` when the gateway closes (the periodic recheck's timer). */
  onClose(stop: () => void): void {
    this.closers.push(stop);
  }

  async close(): Promise<void> {
    for (const stop of this.closers.splice(0)) stop();
    const connection = this.current;
    this.current = null;
    await connection?.close();
  }
}
