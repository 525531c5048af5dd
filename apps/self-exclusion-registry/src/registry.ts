import { timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { escapeHtml, layout } from './pages.ts';

export interface RegistryOptions {
  /** Where state.json keeps the impeded CPFs; in memory only when absent. */
  dataDir?: string;
  /** Loopback by default: the page has no login. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** HTTP Basic credentials the operator's adapter must send on the query API. */
  clientId: string;
  clientSecret: string;
  logger?: boolean;
}

export interface Registry {
  listen(): Promise<string>;
  close(): Promise<void>;
  /** Marks a CPF as impeded (self-excluded), as a citizen would on the national platform. */
  add(cpf: string): void;
  remove(cpf: string): void;
  readonly app: FastifyInstance;
}

/** The two answers of the national platform (SIGAP, IN SPA 31/2025). */
export type RegistryStatus = 'Impedido' | 'Não Impedido';

const CPF = /^\d{11}$/;

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

/**
 * A local stand-in for Brazil's national self-exclusion platform: operators query a CPF
 * (`GET /v1/consulta/{cpf}` with HTTP Basic credentials → `{cpf, situacao}`), and its page lets a
 * tester add or remove a CPF as a citizen would on gov.br. The casino server talks to it through
 * the same adapter it would point at the real platform.
 */
export function createRegistry(options: RegistryOptions): Registry {
  const host = options.host ?? '127.0.0.1';
  const file = options.dataDir ? join(options.dataDir, 'state.json') : null;
  const impeded = new Map<string, string>();
  if (file && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { impeded?: [string, string][] };
    for (const [cpf, since] of saved.impeded ?? []) impeded.set(cpf, since);
  }
  const save = () => {
    if (!file) return;
    mkdirSync(options.dataDir!, { recursive: true });
    writeFileSync(file, JSON.stringify({ impeded: [...impeded] }, null, 2));
  };
  const add = (cpf: string) => {
    if (!impeded.has(cpf)) impeded.set(cpf, new Date().toISOString());
    save();
  };
  const remove = (cpf: string) => {
    impeded.delete(cpf);
    save();
  };

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 16 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const authorized = (request: FastifyRequest): boolean => {
    const header = request.headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
    if (!match) return false;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return (
      colon > 0 &&
      sameText(decoded.slice(0, colon), options.clientId) &&
      sameText(decoded.slice(colon + 1), options.clientSecret)
    );
  };

  app.get<{ Params: { cpf: string } }>('/v1/consulta/:cpf', async (request, reply) => {
    if (!authorized(request)) return reply.code(401).send({ erro: 'credenciais inválidas' });
    const cpf = request.params.cpf.replace(/\D/g, '');
    if (!isValidCpf(cpf)) return reply.code(400).send({ erro: 'CPF inválido' });
    const situacao: RegistryStatus = impeded.has(cpf) ? 'Impedido' : 'Não Impedido';
    return { cpf, situacao, consultado_em: new Date().toISOString() };
  });

  const page = (reply: FastifyReply, notice = '') => {
    const rows = [...impeded]
      .map(
        ([cpf, since]) => `<tr><td>${escapeHtml(cpf)}</td><td class="muted">${escapeHtml(since)}</td>
<td><form method="post" action="/remove"><input type="hidden" name="cpf" value="${escapeHtml(cpf)}">
<button class="small secondary" type="submit">Remove</button></form></td></tr>`,
      )
      .join('');
    const body = `${notice}<div class="card"><h1>Self-exclusion registry (sandbox)</h1>
<p class="muted">Stands in for the national platform. A CPF listed here is <b>Impedido</b>: the casino refuses its sign-up and blocks its account at the next check.</p>
<form method="post" action="/add"><label for="cpf">CPF</label><input id="cpf" name="cpf" inputmode="numeric" maxlength="14" placeholder="000.000.000-00" required>
<button class="primary" type="submit">Add CPF (self-exclude)</button></form></div>
<div class="card"><h2>Impeded CPFs</h2>${rows ? `<table><tr><th>CPF</th><th>Since</th><th></th></tr>${rows}</table>` : '<p class="muted">None.</p>'}</div>`;
    return reply.type('text/html; charset=utf-8').send(layout('Self-exclusion registry', body));
  };
  app.get('/', async (_request, reply) => page(reply));
  const ZForm = z.object({ cpf: z.string().max(20) });
  for (const action of ['add', 'remove'] as const) {
    app.post(`/${action}`, async (request, reply) => {
      const form = ZForm.safeParse(request.body);
      const cpf = form.success ? form.data.cpf.replace(/\D/g, '') : '';
      if (!isValidCpf(cpf))
        return page(reply.code(400), '<div class="card error">That CPF is not valid.</div>');
      if (action === 'add') add(cpf);
      else remove(cpf);
      return reply.redirect('/', 303);
    });
  }

  return {
    app,
    add,
    remove,
    async listen() {
      const url = await app.listen({ host, port: options.port ?? 0 });
      return url.replace('localhost', host);
    },
    close: () => app.close(),
  };
}
