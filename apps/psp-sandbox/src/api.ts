import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isValidCnpj, isValidCpf } from './documents.ts';
import { parseValor } from './money.ts';
import type { Scope, TokenIssuer } from './oauth.ts';
import { registerPixList } from './pix-list.ts';
import { type ChargeInput, type Psp, SandboxError } from './psp.ts';
import type { Charge, Payout } from './state.ts';

const ERROR_BASE = 'https://pix.bcb.gov.br/api/v2/error/';
export const TXID = /^[a-zA-Z0-9]{26,35}$/;
/** Largest amount the sandbox moves in one charge or payout: R$ 1,000,000.00. */
export const MAX_AMOUNT_MINOR = 100_000_000n;
/** The API Pix default lifetime of an immediate charge. */
const DEFAULT_EXPIRACAO = 86_400;
const MAX_EXPIRACAO = 2_147_483_647;

interface Violation {
  razao: string;
  propriedade: string;
}

/** An RFC 7807 problem as the API Pix defines it. */
function problem(
  reply: FastifyReply,
  status: number,
  type: string,
  title: string,
  detail: string,
  violacoes?: Violation[],
) {
  return reply
    .code(status)
    .type('application/problem+json')
    .send({ type: `${ERROR_BASE}${type}`, title, status, detail, ...(violacoes ? { violacoes } : {}) });
}

const amount = z
  .string()
  .max(14)
  .refine((text) => {
    const minor = parseValor(text);
    return minor !== null && minor > 0n && minor <= MAX_AMOUNT_MINOR;
  }, 'must match \\d{1,10}\\.\\d{2}, be above zero and at most 1000000.00');

const nome = z.string().trim().min(1).max(200);
const person = z.union([
  z.object({ cpf: z.string().refine(isValidCpf, 'CPF with valid check digits'), nome }).strict(),
  z.object({ cnpj: z.string().refine(isValidCnpj, 'CNPJ with valid check digits'), nome }).strict(),
]);

const cobBody = z.object({
  calendario: z.object({ expiracao: z.number().int().min(1).max(MAX_EXPIRACAO).optional() }),
  valor: z.object({ original: amount, modalidadeAlteracao: z.literal(0).optional() }),
  chave: z.string().min(1).max(77),
  devedor: person.optional(),
  solicitacaoPagador: z.string().max(140).optional(),
  infoAdicionais: z
    .array(z.object({ nome: z.string().min(1).max(50), valor: z.string().min(1).max(200) }))
    .max(50)
    .optional(),
  loc: z.never({ error: 'locations are created by the sandbox; loc.id is not supported' }).optional(),
});

const devolucaoBody = z
  .object({
    valor: amount,
    natureza: z.literal('ORIGINAL').optional(),
    descricao: z.string().max(140).optional(),
  })
  .strict();
const E2E_ID = /^[a-zA-Z0-9]{32}$/;
const REFUND_ID = /^[a-zA-Z0-9]{1,35}$/;

const cobPatch = z.object({ status: z.literal('REMOVIDA_PELO_USUARIO_RECEBEDOR') }).strict();

const webhookBody = z.object({
  webhookUrl: z
    .string()
    .max(512)
    .refine((text) => {
      try {
        const url = new URL(text);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      } catch {
        return false;
      }
    }, 'an absolute http(s) URL without credentials'),
});

const KEY_FORMATS: Record<string, (key: string) => boolean> = {
  CPF: isValidCpf,
  CNPJ: isValidCnpj,
  EMAIL: (key) => key.length <= 77 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(key),
  TELEFONE: (key) => /^\+[1-9]\d{7,14}$/.test(key),
  EVP: (key) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key),
};

const payoutBody = z
  .object({
    valor: amount,
    chave: z.string().min(1).max(77),
    tipoChave: z.enum(['CPF', 'CNPJ', 'EMAIL', 'TELEFONE', 'EVP']),
    favorecido: person,
    descricao: z.string().max(140).optional(),
  })
  .refine((body) => KEY_FORMATS[body.tipoChave]!(body.chave), {
    path: ['chave'],
    message: 'the key does not match its tipoChave',
  });

function violations(prefix: string, error: z.ZodError): Violation[] {
  return error.issues.slice(0, 20).map((issue) => ({
    razao: issue.message,
    propriedade: [prefix, ...issue.path.map(String)].join('.'),
  }));
}

export function cobView(psp: Psp, charge: Charge, withPix: boolean) {
  return {
    calendario: charge.calendario,
    txid: charge.txid,
    revisao: charge.revisao,
    loc: { ...charge.loc, txid: charge.txid },
    location: charge.loc.location,
    status: charge.status,
    ...(charge.devedor ? { devedor: charge.devedor } : {}),
    valor: charge.valor,
    chave: charge.chave,
    ...(charge.solicitacaoPagador !== undefined ? { solicitacaoPagador: charge.solicitacaoPagador } : {}),
    ...(charge.infoAdicionais ? { infoAdicionais: charge.infoAdicionais } : {}),
    pixCopiaECola: charge.pixCopiaECola,
    ...(withPix && charge.pix.length > 0 ? { pix: charge.pix.map((pix) => psp.pixView(pix, charge)) } : {}),
  };
}

export function payoutView(payout: Payout) {
  return payout;
}

/**
 * The machine API in the API Pix's conventions: the OAuth token at `/oauth/token` and the payload
 * locations at the root, cob, pix, webhook and the sandbox's payouts under `basePath` (strict
 * mode: `/api/v2`, as a real PSP's servers are `https://host/api/` plus the version).
 */
export function registerApi(app: FastifyInstance, psp: Psp, tokens: TokenIssuer, basePath: string): void {
  registerToken(app, tokens);
  registerLocations(app, psp);
  if (!basePath) {
    registerResources(app, psp, tokens);
    return;
  }
  app.register(async (scope) => registerResources(scope, psp, tokens), { prefix: basePath });
}

function registerToken(app: FastifyInstance, tokens: TokenIssuer): void {
  app.post('/oauth/token', async (request, reply) => {
    const form = typeof request.body === 'string' ? new URLSearchParams(request.body) : new URLSearchParams();
    const result = tokens.issue({ authorization: request.headers.authorization, form });
    reply.header('cache-control', 'no-store');
    if (!result.ok) {
      if (result.status === 401) reply.header('www-authenticate', 'Basic realm="psp-sandbox"');
      return reply.code(result.status).send(result.body);
    }
    return reply.send(result.body);
  });
}

function registerResources(app: FastifyInstance, psp: Psp, tokens: TokenIssuer): void {
  const guard = (scope: Scope) => async (request: FastifyRequest, reply: FastifyReply) => {
    const verdict = tokens.check(request.headers.authorization, scope);
    if (verdict === 'unauthenticated') {
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
      return problem(
        reply,
        401,
        'AcessoNegado',
        'Não autenticado',
        'Missing, unknown or expired bearer token.',
      );
    }
    if (verdict === 'forbidden') {
      return problem(reply, 403, 'AcessoNegado', 'Acesso negado', `The token lacks the scope ${scope}.`);
    }
  };

  const sandboxError = (reply: FastifyReply, error: unknown, type: string) => {
    if (!(error instanceof SandboxError)) throw error;
    if (error.kind === 'not_found')
      return problem(reply, 404, 'NaoEncontrado', 'Não encontrado', error.message);
    if (error.kind === 'full')
      return problem(reply, 503, 'ServicoIndisponivel', 'Serviço indisponível', error.message);
    if (error.kind === 'conflict') return problem(reply, 409, type, 'Conflito', error.message);
    return problem(reply, 400, type, 'Operação inválida', error.message);
  };

  app.put<{ Params: { txid: string } }>(
    '/cob/:txid',
    { preHandler: guard('cob.write') },
    async (request, reply) => {
      const { txid } = request.params;
      if (!TXID.test(txid)) {
        return problem(
          reply,
          400,
          'CobOperacaoInvalida',
          'Cobrança inválida.',
          'txid must match [a-zA-Z0-9]{26,35}.',
          [{ razao: 'txid must match [a-zA-Z0-9]{26,35}', propriedade: 'txid' }],
        );
      }
      const parsed = cobBody.safeParse(request.body);
      if (!parsed.success) {
        return problem(
          reply,
          400,
          'CobOperacaoInvalida',
          'Cobrança inválida.',
          'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o schema.',
          violations('cob', parsed.error),
        );
      }
      const body = parsed.data;
      const input: ChargeInput = {
        expiracao: body.calendario.expiracao ?? DEFAULT_EXPIRACAO,
        original: body.valor.original,
        chave: body.chave,
      };
      if (body.devedor) input.devedor = body.devedor;
      if (body.solicitacaoPagador !== undefined) input.solicitacaoPagador = body.solicitacaoPagador;
      if (body.infoAdicionais) input.infoAdicionais = body.infoAdicionais;
      try {
        const { charge, created } = await psp.putCharge(txid, input);
        return reply.code(created ? 201 : 200).send(cobView(psp, charge, false));
      } catch (error) {
        return sandboxError(reply, error, 'CobOperacaoInvalida');
      }
    },
  );

  app.patch<{ Params: { txid: string } }>(
    '/cob/:txid',
    { preHandler: guard('cob.write') },
    async (request, reply) => {
      const parsed = cobPatch.safeParse(request.body);
      if (!parsed.success) {
        return problem(
          reply,
          400,
          'CobOperacaoInvalida',
          'Operação inválida.',
          'This sandbox revises a charge only to remove it: {"status":"REMOVIDA_PELO_USUARIO_RECEBEDOR"}.',
          violations('cob', parsed.error),
        );
      }
      try {
        return reply.send(cobView(psp, await psp.removeCharge(request.params.txid), false));
      } catch (error) {
        return sandboxError(reply, error, 'CobOperacaoInvalida');
      }
    },
  );

  app.get<{ Params: { txid: string } }>(
    '/cob/:txid',
    { preHandler: guard('cob.read') },
    async (request, reply) => {
      const charge = TXID.test(request.params.txid) ? await psp.getCharge(request.params.txid) : null;
      if (!charge)
        return problem(
          reply,
          404,
          'CobNaoEncontrado',
          'Cobrança não encontrada.',
          'No charge with this txid.',
        );
      return reply.send(cobView(psp, charge, true));
    },
  );

  app.put<{ Params: { chave: string } }>(
    '/webhook/:chave',
    { preHandler: guard('webhook.write') },
    async (request, reply) => {
      const parsed = webhookBody.safeParse(request.body);
      if (!parsed.success || request.params.chave.length > 77) {
        return problem(
          reply,
          400,
          'WebhookOperacaoInvalida',
          'Webhook inválido.',
          'webhookUrl must be an absolute http(s) URL.',
          parsed.success ? [] : violations('webhook', parsed.error),
        );
      }
      try {
        return reply.send(await psp.putWebhook(request.params.chave, parsed.data.webhookUrl));
      } catch (error) {
        return sandboxError(reply, error, 'WebhookOperacaoInvalida');
      }
    },
  );

  app.get<{ Params: { chave: string } }>(
    '/webhook/:chave',
    { preHandler: guard('webhook.read') },
    async (request, reply) => {
      const webhook = psp.state.webhooks[request.params.chave];
      if (!webhook)
        return problem(
          reply,
          404,
          'WebhookNaoEncontrado',
          'Webhook não encontrado.',
          'No webhook for this key.',
        );
      return reply.send(webhook);
    },
  );

  app.delete<{ Params: { chave: string } }>(
    '/webhook/:chave',
    { preHandler: guard('webhook.write') },
    async (request, reply) => {
      if (!(await psp.deleteWebhook(request.params.chave))) {
        return problem(
          reply,
          404,
          'WebhookNaoEncontrado',
          'Webhook não encontrado.',
          'No webhook for this key.',
        );
      }
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { e2eid: string } }>(
    '/pix/:e2eid',
    { preHandler: guard('pix.read') },
    async (request, reply) => {
      const found = E2E_ID.test(request.params.e2eid) ? psp.findPix(request.params.e2eid) : null;
      if (!found)
        return problem(reply, 404, 'NaoEncontrado', 'Pix não encontrado.', 'No Pix with this endToEndId.');
      return reply.send(psp.pixView(found.pix, found.charge));
    },
  );

  app.put<{ Params: { e2eid: string; id: string } }>(
    '/pix/:e2eid/devolucao/:id',
    { preHandler: guard('pix.write') },
    async (request, reply) => {
      const { e2eid, id } = request.params;
      const parsed = devolucaoBody.safeParse(request.body);
      if (!E2E_ID.test(e2eid) || !REFUND_ID.test(id) || !parsed.success) {
        return problem(
          reply,
          400,
          'PixDevolucaoInvalida',
          'Devolução inválida.',
          'The refund request does not respect the schema.',
          parsed.success
            ? [{ razao: 'e2eid or id malformed', propriedade: 'path' }]
            : violations('devolucao', parsed.error),
        );
      }
      const input =
        parsed.data.descricao !== undefined
          ? { valor: parsed.data.valor, descricao: parsed.data.descricao }
          : { valor: parsed.data.valor };
      try {
        const { devolucao, created } = await psp.refund(e2eid, id, input);
        return reply.code(created ? 201 : 200).send(devolucao);
      } catch (error) {
        return sandboxError(reply, error, 'PixDevolucaoInvalida');
      }
    },
  );

  app.get<{ Params: { e2eid: string; id: string } }>(
    '/pix/:e2eid/devolucao/:id',
    { preHandler: guard('pix.read') },
    async (request, reply) => {
      const found = E2E_ID.test(request.params.e2eid) ? psp.findPix(request.params.e2eid) : null;
      const devolucao = found?.pix.devolucoes?.find((d) => d.id === request.params.id);
      if (!devolucao)
        return problem(reply, 404, 'NaoEncontrado', 'Devolução não encontrada.', 'No such refund.');
      return reply.send(devolucao);
    },
  );

  app.put<{ Params: { id: string } }>(
    '/payouts/:id',
    { preHandler: guard('pix.write') },
    async (request, reply) => {
      if (!TXID.test(request.params.id)) {
        return problem(
          reply,
          400,
          'PayoutOperacaoInvalida',
          'Pagamento inválido.',
          'id must match [a-zA-Z0-9]{26,35}.',
          [{ razao: 'id must match [a-zA-Z0-9]{26,35}', propriedade: 'id' }],
        );
      }
      const parsed = payoutBody.safeParse(request.body);
      if (!parsed.success) {
        return problem(
          reply,
          400,
          'PayoutOperacaoInvalida',
          'Pagamento inválido.',
          'The payout request does not respect the schema.',
          violations('payout', parsed.error),
        );
      }
      const { descricao, ...rest } = parsed.data;
      try {
        const { payout, created } = await psp.putPayout(
          request.params.id,
          descricao !== undefined ? { ...rest, descricao } : rest,
        );
        return reply.code(created ? 201 : 200).send(payoutView(payout));
      } catch (error) {
        return sandboxError(reply, error, 'PayoutOperacaoInvalida');
      }
    },
  );

  app.get<{ Params: { id: string } }>(
    '/payouts/:id',
    { preHandler: guard('pix.read') },
    async (request, reply) => {
      const payout = psp.state.payouts[request.params.id];
      if (!payout)
        return problem(
          reply,
          404,
          'PayoutNaoEncontrado',
          'Pagamento não encontrado.',
          'No payout with this id.',
        );
      return reply.send(payoutView(payout));
    },
  );

  registerPixList(app, psp, guard);
}

function registerLocations(app: FastifyInstance, psp: Psp): void {
  // The location of a dynamic BR Code. A payer's app asks for the charge's payload; a browser
  // (the tester scanning the QR with a phone) is sent to the payer page instead.
  app.get<{ Params: { id: string } }>('/qr/v2/:id', async (request, reply) => {
    const charge = /^[0-9a-f]{32}$/.test(request.params.id)
      ? psp.findChargeByLocation(request.params.id)
      : null;
    if (!charge) {
      return problem(
        reply,
        404,
        'CobPayloadNaoEncontrado',
        'Cobrança não encontrada.',
        'No charge at this location.',
      );
    }
    if ((request.headers.accept ?? '').includes('text/html')) {
      return reply.redirect(`/pay/${charge.txid}`, 303);
    }
    await psp.getCharge(charge.txid);
    return reply.send({
      txid: charge.txid,
      revisao: charge.revisao,
      calendario: {
        criacao: charge.calendario.criacao,
        apresentacao: new Date().toISOString(),
        expiracao: charge.calendario.expiracao,
      },
      ...(charge.devedor ? { devedor: charge.devedor } : {}),
      valor: charge.valor,
      chave: charge.chave,
      status: charge.status,
      ...(charge.solicitacaoPagador !== undefined ? { solicitacaoPagador: charge.solicitacaoPagador } : {}),
    });
  });
}
