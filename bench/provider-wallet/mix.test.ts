import { describe, expect, it } from 'vitest';
import { AnswerBook, MIX, planRound, STAKE_MINOR, type TPlannedCall } from './mix.ts';

/** A fixed sequence of draws, repeated, so a test picks the branch it means. */
const draws = (...values: number[]) => {
  let at = 0;
  return () => values[at++ % values.length]!;
};
const counter = () => {
  let n = 0;
  return () => String(++n);
};
const player = { index: 0, token: 'token-of-sixteen-chars' };
const kinds = (calls: TPlannedCall[]) => calls.map((call) => call.kind);

describe('the aggregator mix', () => {
  it('plays a winning round as a bet then a win that references it, paying what it names', () => {
    // No balance call (0.9 ≥ 0.3), a win fate (0.5), the second win amount (0.3), no retries (0.9).
    const calls = planRound(draws(0.9, 0.5, 0.3, 0.9, 0.9), counter(), player, 'slot-game');
    expect(kinds(calls)).toEqual(['bet', 'win']);
    const [bet, win] = calls as [TPlannedCall, TPlannedCall];
    expect(bet.body).toMatchObject({ amount: '0.10', currency: 'BRL', token: player.token });
    expect(bet.body).not.toHaveProperty('round_closed');
    expect(win.body.reference_transaction_uuid).toBe(bet.transactionId);
    expect(win.body.round).toBe(bet.body.round);
    expect(win.movesMinor).toBe(10n);
  });

  it('starts some rounds with a balance call and sends some calls twice with the same id', () => {
    const calls = planRound(draws(0.1, 0.5, 0.3, 0.01, 0.01), counter(), player, 'slot-game');
    expect(kinds(calls)).toEqual(['balance', 'bet', 'bet', 'win', 'win']);
    expect(calls[1]).toBe(calls[2]);
    expect(calls[3]).toBe(calls[4]);
  });

  it('sends a rollback before its bet in some rounds and expects the late bet refused', () => {
    const calls = planRound(draws(0.9, 0.01), counter(), player, 'slot-game');
    expect(kinds(calls)).toEqual(['rollback', 'bet']);
    expect(calls[0]!.referenceId).toBe(calls[1]!.transactionId);
    expect(calls[1]!.expected).toBe('RS_ERROR_TRANSACTION_ROLLED_BACK');
  });

  it('closes a lost round with its bet and rolls back others', () => {
    const lost = planRound(draws(0.9, 0.99, 0.9), counter(), player, 'slot-game');
    expect(kinds(lost)).toEqual(['bet']);
    expect(lost[0]!.body.round_closed).toBe(true);
    const undone = planRound(draws(0.9, MIX.rollbackFirst + MIX.win + 0.01, 0.9), counter(), player, 'g1');
    expect(kinds(undone)).toEqual(['bet', 'rollback']);
  });
});

describe('the answer book', () => {
  it('moves money once per transaction id and refunds only bets that were taken', () => {
    const book = new AnswerBook(1);
    const ids = counter();
    const [bet, win] = planRound(draws(0.9, 0.5, 0.3, 0.9, 0.9), ids, player, 'g1') as [
      TPlannedCall,
      TPlannedCall,
    ];
    book.record(0, bet, 'RS_OK');
    book.record(0, bet, 'RS_OK');
    book.record(0, win, 'RS_OK');
    expect(book.movedMinor[0]).toBe(-STAKE_MINOR + 10n);
    expect(book.unexpected.size).toBe(0);

    const [rollback, lateBet] = planRound(draws(0.9, 0.01), ids, player, 'g1') as [
      TPlannedCall,
      TPlannedCall,
    ];
    book.record(0, rollback, 'RS_OK');
    book.record(0, lateBet, 'RS_ERROR_TRANSACTION_ROLLED_BACK');
    expect(book.movedMinor[0]).toBe(0n);
  });

  it('refunds a rolled-back bet once, and a bet refused then taken on its retry moves once', () => {
    const book = new AnswerBook(2);
    const ids = counter();
    const [bet, rollback] = planRound(
      draws(0.9, MIX.rollbackFirst + MIX.win + 0.01, 0.9),
      ids,
      player,
      'g1',
    ) as [TPlannedCall, TPlannedCall];
    book.record(0, bet, 'RS_OK');
    book.record(0, rollback, 'RS_OK');
    book.record(0, rollback, 'RS_OK');
    expect(book.movedMinor[0]).toBe(0n);
    const [late] = planRound(draws(0.9, 0.99, 0.01), ids, player, 'g1') as [TPlannedCall];
    book.record(1, late, 'RS_ERROR_NOT_ENOUGH_MONEY');
    book.record(1, late, 'RS_OK');
    expect(book.movedMinor[1]).toBe(-STAKE_MINOR);
    expect([...book.unexpected]).toEqual([['bet RS_ERROR_NOT_ENOUGH_MONEY', 1]]);
  });

  it('tallies answers a correct wallet would not give, and the money they moved', () => {
    const book = new AnswerBook(1);
    const [rollback, lateBet] = planRound(draws(0.9, 0.01), counter(), player, 'g1') as [
      TPlannedCall,
      TPlannedCall,
    ];
    book.record(0, rollback, 'RS_OK');
    book.record(0, lateBet, 'RS_OK');
    expect(book.movedMinor[0]).toBe(-STAKE_MINOR);
    expect([...book.unexpected]).toEqual([['bet RS_OK', 1]]);
  });
});
