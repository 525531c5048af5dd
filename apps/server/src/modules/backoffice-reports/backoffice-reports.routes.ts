import {
  type TDashboardResponse,
  type TLanguage,
  ZAdminPageQuery,
  ZBalanceAdjustRequest,
  ZBalanceAdjustResponse,
  ZCrashChainParams,
  ZCrashChainsAdminResponse,
  ZCrashRoundsAdminResponse,
  ZDashboardQuery,
  ZDashboardResponse,
  ZForceOfflineResponse,
  ZLangQuery,
  ZMailOutboxQuery,
  ZMailOutboxResponse,
  ZPlayerAuditResponse,
  ZPlayerDetail,
  ZPlayerNote,
  ZPlayerNoteRequest,
  ZPlayerNotesResponse,
  ZPlayerParams,
  ZPlayerRoundsResponse,
  ZPlayerSearchQuery,
  ZPlayerSearchResponse,
  ZPlayerSessionsResponse,
  ZPlayerStatusRequest,
  ZPlayerStatusResponse,
  ZPlayerTransfersQuery,
  ZPlayerTransfersResponse,
  ZReconciliationResponse,
} from '@sorte/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { sendCsv as sendCsvText, type TCsvColumn, toCsv } from '../admin/csv.ts';
import { operatorOf, requirePermission } from '../admin/permissions.ts';
import { seesPii } from '../admin/pii.ts';
import { dashboard } from './dashboard.service.ts';
import {
  addPlayerNote,
  adjustPlayerBalance,
  forcePlayerOffline,
  playerAudit,
  playerDetail,
  playerNotes,
  playerRounds,
  playerSessions,
  playerTransfers,
  searchPlayers,
  setPlayerFrozen,
} from './players.service.ts';
import { pagingOf, type TPage, type TPaging } from './reports.format.ts';
import { crashChainRounds, crashChains, mailOutbox, reconciliation } from './reports.service.ts';

const tags = ['admin'];
const security = [{ bearerAuth: [] }];

/** Sends rows as a CSV download (`format=csv` of a list): every row of the filter, not one page. */
function sendCsv<T>(
  reply: FastifyReply,
  name: string,
  columns: readonly TCsvColumn<T>[],
  rows: readonly T[],
) {
  return sendCsvText(reply, name, toCsv(columns, rows));
}

/** A list call's answer: the page, or with `format=csv` every row of the filter as a download. */
function pageOrCsv<T extends Record<string, unknown>>(
  lang: TLanguage,
  reply: FastifyReply,
  paging: TPaging,
  page: TPage<T>,
  name: string,
  keys: readonly (keyof T & string)[],
) {
  return paging.all ? sendCsv(reply, name, columnsOf<T>(keys), page.list) : ok(lang, page);
}

/** The columns of a CSV: every field of the row, in the order of its keys, as headers. */
function columnsOf<T extends Record<string, unknown>>(keys: readonly (keyof T & string)[]): TCsvColumn<T>[] {
  return keys.map((key) => ({
    header: key,
    value: (row: T) => {
      const value = row[key];
      if (value === null || value === undefined) return null;
      if (typeof value === 'object') return JSON.stringify(value);
      return value as string | number | boolean;
    },
  }));
}

const DASHBOARD_COLUMNS = [
  'date',
  'deposits',
  'deposits_count',
  'withdrawals',
  'withdrawals_count',
  'bets',
  'bets_bonus',
  'bets_count',
  'wins',
  'refunds',
  'ggr',
  'bonus_cost',
  'ngr',
  'corrections',
  'active_players',
  'new_players',
  'depositors',
] as const;

/**
 * Back-office data under /api/admin (issue 15): dashboard, players (search, detail, actions),
 * reconciliation, crash chains and the mail outbox. Every route requires an operator token of this
 * site whose role has the route's permission (401 / 403 otherwise, a player token included).
 */
export async function backofficeReportsRoutes(app: FastifyInstance) {
  const { services } = app;
  const db = services.db;
  const readDb = services.readDb;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/dashboard', {
    onRequest: requirePermission('dashboard.read'),
    schema: {
      tags,
      summary:
        "The site's deposits, withdrawals, bets, wins, GGR, bonus cost and players over a period, per day",
      description:
        'Days in the site time zone. `preset` today / 7d / 30d, or `from` and `to` (YYYY-MM-DD, both included). ' +
        '`format=csv` downloads the daily series.',
      security,
      querystring: ZDashboardQuery,
      response: responses(ZDashboardResponse),
    },
    handler: async (request, reply) => {
      const result = await dashboard(readDb, request.site, request.query);
      if (request.query.format === 'csv') {
        return sendCsv(
          reply,
          `dashboard-${result.from}-${result.to}`,
          columnsOf<TDashboardResponse['daily'][number]>(DASHBOARD_COLUMNS),
          result.daily,
        );
      }
      return ok(request.lang, result);
    },
  });

  r.get('/admin/players', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      summary:
        'Find players by username, name, CPF, phone, email or IP address (contains, any case); paged or CSV',
      security,
      querystring: ZPlayerSearchQuery,
      response: responses(ZPlayerSearchResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const operator = operatorOf(request);
      const page = await searchPlayers(readDb, operator.siteId, request.query, paging, seesPii(operator));
      return pageOrCsv(request.lang, reply, paging, page, 'players', [
        'id',
        'username',
        'realname',
        'cpf',
        'phone',
        'email',
        'register_ip',
        'status',
        'cash',
        'bonus',
        'created_at',
        'last_login_at',
      ]);
    },
  });

  r.get('/admin/players/:id', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      summary:
        "A player's profile, balances, totals, online sessions and responsible-gaming limits and pauses",
      security,
      params: ZPlayerParams,
      querystring: ZLangQuery,
      response: responses(ZPlayerDetail),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await playerDetail(db, operatorOf(request).siteId, request.params.id, seesPii(operatorOf(request))),
      ),
  });

  r.get('/admin/players/:id/transfers', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      summary: "The player's ledger (every transfer of their accounts), newest first; paged or CSV",
      security,
      params: ZPlayerParams,
      querystring: ZPlayerTransfersQuery,
      response: responses(ZPlayerTransfersResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const page = await playerTransfers(
        readDb,
        operatorOf(request).siteId,
        request.params.id,
        request.query,
        paging,
      );
      return pageOrCsv(request.lang, reply, paging, page, `player-${request.params.id}-ledger`, [
        'id',
        'created_at',
        'kind',
        'account',
        'counterparty',
        'change',
        'balance_after',
        'reference',
        'idempotency_key',
      ]);
    },
  });

  r.get('/admin/players/:id/rounds', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      summary: "The player's rounds and bets (in-house games, crash, third-party games), newest first",
      security,
      params: ZPlayerParams,
      querystring: ZAdminPageQuery,
      response: responses(ZPlayerRoundsResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const page = await playerRounds(readDb, operatorOf(request).siteId, request.params.id, paging);
      return pageOrCsv(request.lang, reply, paging, page, `player-${request.params.id}-rounds`, [
        'source',
        'id',
        'game',
        'created_at',
        'status',
        'stake',
        'payout',
        'multiplier',
      ]);
    },
  });

  r.get('/admin/players/:id/sessions', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      summary: "The player's sessions (logins), newest first, with address, device and how each ended",
      security,
      params: ZPlayerParams,
      querystring: ZAdminPageQuery,
      response: responses(ZPlayerSessionsResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const operator = operatorOf(request);
      const page = await playerSessions(db, operator.siteId, request.params.id, paging, seesPii(operator));
      return pageOrCsv(request.lang, reply, paging, page, `player-${request.params.id}-sessions`, [
        'id',
        'created_at',
        'last_seen_at',
        'ended_at',
        'end_reason',
        'active',
        'restricted',
        'ip',
        'user_agent',
      ]);
    },
  });

  r.get('/admin/players/:id/notes', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      summary: 'Operator notes on the player, newest first',
      security,
      params: ZPlayerParams,
      querystring: ZAdminPageQuery,
      response: responses(ZPlayerNotesResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const page = await playerNotes(db, operatorOf(request).siteId, request.params.id, paging);
      return pageOrCsv(request.lang, reply, paging, page, `player-${request.params.id}-notes`, [
        'id',
        'created_at',
        'operator',
        'body',
      ]);
    },
  });

  r.post('/admin/players/:id/notes', {
    onRequest: requirePermission('players.manage'),
    schema: {
      tags,
      summary: 'Add a note on the player (notes are never edited or removed); audited',
      security,
      params: ZPlayerParams,
      querystring: ZLangQuery,
      body: ZPlayerNoteRequest,
      response: responses(ZPlayerNote),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await addPlayerNote(db, operatorOf(request), request.params.id, request.body.body),
        'messages.player_note_added',
      ),
  });

  r.get('/admin/players/:id/audit', {
    onRequest: requirePermission('players.read'),
    schema: {
      tags,
      summary: 'The audit log of operator actions on the player (who, what, before and after), newest first',
      security,
      params: ZPlayerParams,
      querystring: ZAdminPageQuery,
      response: responses(ZPlayerAuditResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const page = await playerAudit(db, operatorOf(request).siteId, request.params.id, paging);
      return pageOrCsv(request.lang, reply, paging, page, `player-${request.params.id}-audit`, [
        'id',
        'created_at',
        'operator',
        'action',
        'entity',
        'entity_id',
        'before',
        'after',
      ]);
    },
  });

  r.post('/admin/players/:id/force-offline', {
    onRequest: requirePermission('players.manage'),
    schema: {
      tags,
      summary: 'End every session of the player (their next call: 401 force_offline); audited',
      security,
      params: ZPlayerParams,
      querystring: ZLangQuery,
      response: responses(ZForceOfflineResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await forcePlayerOffline(db, operatorOf(request), request.params.id),
        'messages.force_offline_done',
      ),
  });

  r.post('/admin/players/:id/freeze', {
    onRequest: requirePermission('players.manage'),
    schema: {
      tags,
      summary:
        'Freeze the account (login and play refused with ACCOUNT_DISABLED, sessions ended); reason required; audited',
      security,
      params: ZPlayerParams,
      querystring: ZLangQuery,
      body: ZPlayerStatusRequest,
      response: responses(ZPlayerStatusResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await setPlayerFrozen(db, operatorOf(request), request.params.id, true, request.body.reason),
        'messages.player_frozen',
      ),
  });

  r.post('/admin/players/:id/unfreeze', {
    onRequest: requirePermission('players.manage'),
    schema: {
      tags,
      summary: 'Lift the freeze of the account; reason required; audited',
      security,
      params: ZPlayerParams,
      querystring: ZLangQuery,
      body: ZPlayerStatusRequest,
      response: responses(ZPlayerStatusResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await setPlayerFrozen(db, operatorOf(request), request.params.id, false, request.body.reason),
        'messages.player_unfrozen',
      ),
  });

  r.post('/admin/players/:id/adjust-balance', {
    onRequest: requirePermission('balance.adjust'),
    schema: {
      tags,
      summary:
        "Correct the player's cash with a ledger transfer to or from the suspense account; reason required; audited",
      description:
        'credit: suspense → cash; debit: cash → suspense (INSUFFICIENT_FUNDS beyond the cash). The same ' +
        '`idempotency_key` with the same request answers the first transfer; with another request 409 IDEMPOTENCY_CONFLICT.',
      security,
      params: ZPlayerParams,
      querystring: ZLangQuery,
      body: ZBalanceAdjustRequest,
      response: responses(ZBalanceAdjustResponse),
    },
    handler: async (request) =>
      ok(
        request.lang,
        await adjustPlayerBalance(db, operatorOf(request), request.params.id, {
          direction: request.body.direction,
          amountMinor: request.body.amount,
          reason: request.body.reason,
          idempotencyKey: request.body.idempotency_key,
        }),
        'messages.balance_adjusted',
      ),
  });

  r.get('/admin/reconciliation', {
    onRequest: requirePermission('finance.reports'),
    schema: {
      tags,
      summary:
        "The ledger's invariants checked for this site now (balances sum to zero, no drift), with its balances",
      security,
      querystring: ZLangQuery,
      response: responses(ZReconciliationResponse),
    },
    handler: async (request) => ok(request.lang, await reconciliation(db, operatorOf(request).siteId)),
  });

  r.get('/admin/crash/chains', {
    onRequest: requirePermission('fairness.read'),
    schema: {
      tags,
      summary:
        'Crash hash chains as committed: terminating hash, public salt, length and rounds played (never the seed)',
      security,
      querystring: ZAdminPageQuery,
      response: responses(ZCrashChainsAdminResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const page = await crashChains(readDb, paging);
      return pageOrCsv(request.lang, reply, paging, page, 'crash-chains', [
        'id',
        'terminating_hash',
        'public_salt',
        'salt_source',
        'salt_fixed_at',
        'length',
        'position',
        'created_at',
        'first_round_at',
        'last_round_at',
      ]);
    },
  });

  r.get('/admin/crash/chains/:id/rounds', {
    onRequest: requirePermission('fairness.read'),
    schema: {
      tags,
      summary:
        "A chain's rounds, newest first: the commitment, and the round hash and crash point once crashed",
      security,
      params: ZCrashChainParams,
      querystring: ZAdminPageQuery,
      response: responses(ZCrashRoundsAdminResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const page = await crashChainRounds(readDb, request.params.id, paging);
      return pageOrCsv(request.lang, reply, paging, page, `crash-chain-${request.params.id}-rounds`, [
        'id',
        'position',
        'state',
        'hash_commitment',
        'round_hash',
        'crash_point',
        'created_at',
        'crashed_at',
        'bets',
      ]);
    },
  });

  r.get('/admin/mail-outbox', {
    onRequest: requirePermission('mail.read'),
    schema: {
      tags,
      summary: "The site's outgoing mail, newest first (one-time codes masked); paged or CSV; read-only",
      security,
      querystring: ZMailOutboxQuery,
      response: responses(ZMailOutboxResponse),
    },
    handler: async (request, reply) => {
      const paging = pagingOf(request.query);
      const page = await mailOutbox(db, operatorOf(request).siteId, request.query, paging);
      return pageOrCsv(request.lang, reply, paging, page, 'mail-outbox', [
        'id',
        'created_at',
        'to_address',
        'username',
        'subject',
        'status',
        'attempts',
        'last_error',
        'sent_at',
      ]);
    },
  });
}
