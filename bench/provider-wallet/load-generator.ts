import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { AGGREGATOR_SIGNATURE_HEADER, type TWalletCall } from '@sorte/contract';
import { signBody } from '@sorte/provider-protocol';
import { percentile } from '../support/report.ts';
import { AnswerBook, planRound, type TPlannedCall } from './mix.ts';

/**
 * The aggregator's side of the provider-wallet bench, in a process of its own (forked by
 * provider-wallet.bench.ts, which sends it the server's port, the secret and the players' game
 * tokens): an open loop at a fixed offered rate of requests per second. Every 1/rate s a slot
 * sends one request, whatever is still unanswered: the next call of a round whose previous call
 * answered if one is waiting, else the first call of a new round of a random player. Each
 * request's latency runs from its slot, so a server that falls behind is charged for the wait.
 * Calls are signed as the aggregator's wallet client signs them (HMAC of the raw body, a fresh
 * request_uuid per attempt); a call without a wallet answer (no HTTP 200, timeout) is sent again
 * with the same transaction id after 250 ms × attempt, as that client does, at most 3 attempts.
 */

export type TSetup = {
  type: 'setup';
  port: number;
  aggregator: string;
  secret: string;
  gameCode: string;
  tokens: string[];
  sockets: number;
  timeoutMs: number;
};
export type TRun = { type: 'run'; rate: number; seconds: number };
/** `count`: calls answered or abandoned (whose latency is a lower bound). */
export type TKindStats = { count: number; p50Ms: number; p95Ms: number; p99Ms: number };
/** What a run saw; its CPU is over the whole run, settling included (`answered` + `settled` calls). */
export type TRunDone = {
  type: 'done';
  /** Requests sent in the window (slots filled), and what they got. */
  sent: number;
  answered: number;
  non200: number;
  windowS: number;
  /** From the first slot to the last measured answer. */
  elapsedS: number;
  /** Latency from the slot to the answer, per call kind and over all calls. */
  byKind: Record<TWalletCall | 'all', TKindStats>;
  unexpected: [string, number][];
  /**
   * Calls still unanswered when the drain ended, settled afterwards; their latency is counted as
   * the wait until they were abandoned (a lower bound).
   */
  abandoned: number;
  /** Of those (and of the calls out of attempts), how many the settling got an answer to. */
  settled: number;
  /** Calls that got no definite answer at all, even after the drain: the money check cannot be exact. */
  unresolved: number;
  /** Per player, the money the answers moved so far (all runs), minor units as text. */
  movedMinor: string[];
  loadCpuMs: number;
};

const ATTEMPTS = 3;
const BACKOFF_MS = 250;
/** Calls settled at once after the drain (the server is past its capacity when any are left). */
const SETTLE_CONCURRENCY = 32;
/** How long after the window answers still count (then the rest is abandoned and settled). */
const DRAIN_MS = 15_000;

type TRound = { player: number; calls: TPlannedCall[]; next: number };
type TPending = { round: TRound; call: TPlannedCall; attempt: number };
type TAnswer = { http: number; status: string | null };

let setup: TSetup;
let agent: http.Agent;
let book: AnswerBook;

function post(call: TPlannedCall, onRequest?: (request: http.ClientRequest) => void): Promise<TAnswer> {
  const raw = JSON.stringify({ ...call.body, request_uuid: randomUUID() });
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: '127.0.0.1',
        port: setup.port,
        method: 'POST',
        path: `/api/providers/${setup.aggregator}/wallet/${call.kind}`,
        timeout: setup.timeoutMs,
        headers: {
          host: 'localhost',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(raw),
          [AGGREGATOR_SIGNATURE_HEADER]: signBody(setup.secret, raw),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          let status: string | null = null;
          try {
            status = String((JSON.parse(text) as { status?: unknown }).status ?? '') || null;
          } catch {
            status = null;
          }
          resolve({ http: response.statusCode ?? 0, status });
        });
        response.on('error', () => resolve({ http: 0, status: null }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('request timeout')));
    request.on('error', () => resolve({ http: 0, status: null }));
    onRequest?.(request);
    request.end(raw);
  });
}

/** One measured run at `rate` requests/s for `seconds`; what it saw. */
async function run(rate: number, seconds: number): Promise<TRunDone> {
  const latencies: Record<TWalletCall, number[]> = { balance: [], bet: [], win: [], rollback: [] };
  const ready: TPending[] = [];
  const inFlight = new Map<TPending, { request: http.ClientRequest; slotAt: number }>();
  const unsettled: TPending[] = [];
  let sent = 0;
  let answered = 0;
  let non200 = 0;
  let lastAnswerAt = 0;
  /** Calls waiting out their backoff before another attempt. */
  let backingOff = 0;
  const windowMs = seconds * 1000;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const open = () => performance.now() - started < windowMs;

  const newRound = (): TPending => {
    const player = Math.floor(Math.random() * setup.tokens.length);
    const calls = planRound(
      Math.random,
      randomUUID,
      { index: player, token: setup.tokens[player]! },
      setup.gameCode,
    );
    const round = { player, calls, next: 1 };
    return { round, call: calls[0]!, attempt: 1 };
  };

  const send = async (pending: TPending, slotAt: number) => {
    sent += 1;
    const answer = await post(pending.call, (request) => inFlight.set(pending, { request, slotAt }));
    const wasInFlight = inFlight.delete(pending);
    if (!wasInFlight) return; // abandoned at the end of the drain: settled afterwards
    const at = performance.now();
    if (answer.http === 200 && answer.status !== null) {
      answered += 1;
      lastAnswerAt = at;
      latencies[pending.call.kind].push(at - slotAt);
      book.record(pending.round.player, pending.call, answer.status);
      const { round } = pending;
      if (round.next < round.calls.length && open()) {
        ready.push({ round, call: round.calls[round.next++]!, attempt: 1 });
      }
      return;
    }
    non200 += 1;
    if (pending.attempt >= ATTEMPTS || !open()) {
      unsettled.push(pending);
      return;
    }
    backingOff += 1;
    setTimeout(() => {
      backingOff -= 1;
      const again = { ...pending, attempt: pending.attempt + 1 };
      if (open()) ready.push(again);
      else unsettled.push(again);
    }, BACKOFF_MS * pending.attempt);
  };

  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now() - started;
      const due = Math.floor((Math.min(now, windowMs) * rate) / 1000);
      while (sent < due) {
        const slotAt = started + (sent * 1000) / rate;
        void send(ready.shift() ?? newRound(), slotAt);
      }
      if (now >= windowMs) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  const drainUntil = performance.now() + DRAIN_MS;
  while ((inFlight.size > 0 || backingOff > 0) && performance.now() < drainUntil) {
    await new Promise((r) => setTimeout(r, 20));
  }
  // Backoffs are at most 500 ms: let them end, so no attempt is left behind unsettled.
  while (backingOff > 0) await new Promise((r) => setTimeout(r, 20));
  // A call due for another attempt when the window closed is settled with the abandoned ones.
  unsettled.push(...ready.filter((pending) => pending.attempt > 1));
  // An abandoned call waited at least until now: it counts at that wait (a lower bound), so the
  // percentiles of an overloaded server are not those of the calls it happened to answer.
  const abandonedAt = performance.now();
  const abandoned = [...inFlight.keys()];
  for (const [pending, { request, slotAt }] of inFlight) {
    latencies[pending.call.kind].push(abandonedAt - slotAt);
    request.destroy();
  }
  inFlight.clear();
  const elapsedS = (Math.max(lastAnswerAt, started) - started) / 1000;
  const { settled, unresolved } = await settle([...abandoned, ...unsettled]);
  const cpu = process.cpuUsage(cpuBefore);
  const stats = (kind: TWalletCall | 'all'): TKindStats => {
    const of = kind === 'all' ? Object.values(latencies).flat() : latencies[kind];
    const sorted = of.sort((a, b) => a - b);
    return {
      count: sorted.length,
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
      p99Ms: percentile(sorted, 99),
    };
  };
  return {
    type: 'done',
    sent,
    answered,
    non200,
    windowS: seconds,
    elapsedS,
    byKind: {
      balance: stats('balance'),
      bet: stats('bet'),
      win: stats('win'),
      rollback: stats('rollback'),
      all: stats('all'),
    },
    unexpected: [...book.unexpected],
    abandoned: abandoned.length,
    settled,
    unresolved,
    movedMinor: book.movedMinor.map(String),
    loadCpuMs: (cpu.user + cpu.system) / 1000,
  };
}

/**
 * The calls left without a wallet answer, sent again with their transaction ids (a few at a time,
 * up to 5 attempts each) until each has one, so that the money they moved is known: what an
 * aggregator does with a call it never got an answer to. Not measured: how many got an answer,
 * and how many none.
 */
async function settle(calls: TPending[]): Promise<{ settled: number; unresolved: number }> {
  let settled = 0;
  let unresolved = 0;
  const queue = [...calls];
  const worker = async () => {
    for (let pending = queue.shift(); pending; pending = queue.shift()) {
      let answer: TAnswer = { http: 0, status: null };
      for (let attempt = 1; attempt <= 5 && !(answer.http === 200 && answer.status); attempt++) {
        answer = await post(pending.call);
        if (answer.http !== 200) await new Promise((r) => setTimeout(r, BACKOFF_MS * attempt));
      }
      if (answer.http === 200 && answer.status) {
        settled += 1;
        book.record(pending.round.player, pending.call, answer.status);
      } else unresolved += 1;
    }
  };
  await Promise.all(Array.from({ length: SETTLE_CONCURRENCY }, worker));
  return { settled, unresolved };
}

process.on('message', (message: TSetup | TRun) => {
  if (message.type === 'setup') {
    setup = message;
    agent = new http.Agent({ keepAlive: true, maxSockets: message.sockets });
    book = new AnswerBook(message.tokens.length);
    process.send!({ type: 'ready' });
    return;
  }
  void run(message.rate, message.seconds).then((done) => process.send!(done));
});
process.on('disconnect', () => {
  agent?.destroy();
  process.exit(0);
});
