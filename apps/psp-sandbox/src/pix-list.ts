import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Scope } from './oauth.ts';
import type { Psp } from './psp.ts';

type Guard = (scope: Scope) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const dateTime = z
  .string()
  .max(40)
  .refine((text) => !Number.isNaN(Date.parse(text)), 'RFC 3339 date-time');
const query = z
  .object({
    inicio: dateTime,
    fim: dateTime,
    txid: z
      .string()
      .regex(/^[a-zA-Z0-9]{1,35}$/)
      .optional(),
    cpf: z
      .string()
      .regex(/^\d{11}$/)
      .optional(),
    cnpj: z
      .string()
      .regex(/^[0-9A-Z]{14}$/)
      .optional(),
    'paginacao.paginaAtual': z.coerce.number().int().min(0).max(1_000_000).default(0),
    'paginacao.itensPorPagina': z.coerce.number().int().min(1).max(1000).default(100),
  })
  .refine((q) => Date.parse(q.inicio) <= Date.parse(q.fim), { path: ['fim'], message: 'fim before inicio' })
  .refine((q) => !(q.cpf && q.cnpj), { path: ['cnpj'], message: 'cpf and cnpj together' });

/** `GET /pix`: received Pix in a window, filtered by txid or payer document, paged (PixConsultados). */
export function registerPixList(app: FastifyInstance, psp: Psp, guard: Guard): void {
  app.get('/pix', { preHandler: guard('pix.read') }, async (request, reply) => {
    const parsed = query.safeParse(request.query);
    if (!parsed.success) {
      return reply
        .code(400)
        .type('application/problem+json')
        .send({
          type: 'https://pix.bcb.gov.br/api/v2/error/ConsultaPixInvalida',
          title: 'Consulta de Pix inválida.',
          status: 400,
          detail: 'Os parâmetros da consulta não respeitam o schema.',
          violacoes: parsed.error.issues.slice(0, 20).map((issue) => ({
            razao: issue.message,
            propriedade: issue.path.map(String).join('.'),
          })),
        });
    }
    const q = parsed.data;
    const all = psp.listPix({
      inicio: Date.parse(q.inicio),
      fim: Date.parse(q.fim),
      ...(q.txid ? { txid: q.txid } : {}),
      ...(q.cpf ? { cpf: q.cpf } : {}),
      ...(q.cnpj ? { cnpj: q.cnpj } : {}),
    });
    const perPage = q['paginacao.itensPorPagina'];
    const page = q['paginacao.paginaAtual'];
    return reply.send({
      parametros: {
        inicio: new Date(Date.parse(q.inicio)).toISOString(),
        fim: new Date(Date.parse(q.fim)).toISOString(),
        paginacao: {
          paginaAtual: page,
          itensPorPagina: perPage,
          quantidadeDePaginas: Math.max(1, Math.ceil(all.length / perPage)),
          quantidadeTotalDeItens: all.length,
        },
      },
      pix: all.slice(page * perPage, (page + 1) * perPage),
    });
  });
}
