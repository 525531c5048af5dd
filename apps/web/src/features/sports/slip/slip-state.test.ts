import { describe, expect, it } from 'vitest';
import { parseAmountInput } from '../../../lib/format.ts';
import { combinedOddsText, potentialReturn, sumMoney } from './odds-math.ts';
import {
  acceptChanges,
  EMPTY_SLIP,
  pendingChanges,
  refuseChanges,
  sameEventConflict,
  setAccumulatorStake,
  setPolicy,
  setSingleStake,
  summarise,
  type TNewPick,
  type TSlipState,
  togglePick,
  updatePrice,
} from './slip-state.ts';

const pick = (id: string, odds: string, eventId = `e${id}`): TNewPick => ({
  selectionId: id,
  eventId,
  eventName: 'Flamengo x Palmeiras',
  homeTeam: 'Flamengo',
  awayTeam: 'Palmeiras',
  marketKind: '1x2',
  selectionCode: 'home',
  odds,
});

const withPicks = (...picks: TNewPick[]): TSlipState =>
  picks.reduce((state, item) => togglePick(state, item), EMPTY_SLIP);

describe('odds arithmetic', () => {
  it('multiplies the legs exactly and floors the return to the cent', () => {
    expect(combinedOddsText(['2.15', '1.80'])).toBe('3.87');
    expect(potentialReturn('10.00', ['2.15', '1.80'])).toBe('38.70');
    // 1.33 × 1.33 × 1.33 = 2.352637: the odds show 2.35, the return of 10,00 is 23,52 (not 23,53).
    expect(combinedOddsText(['1.33', '1.33', '1.33'])).toBe('2.35');
    expect(potentialReturn('10.00', ['1.33', '1.33', '1.33'])).toBe('23.52');
    // A float would make 1.1 × 3 = 3.3000000000000003.
    expect(potentialReturn('3.00', ['1.10'])).toBe('3.30');
    expect(sumMoney(['10.10', '0.20'])).toBe('10.30');
  });
});

describe('the bet slip', () => {
  it('turns to the accumulator at the second selection and takes a selection out on a second tap', () => {
    let slip = withPicks(pick('1', '2.15'));
    expect(slip.tab).toBe('single');
    slip = togglePick(slip, pick('2', '1.80'));
    expect(slip.tab).toBe('accumulator');
    slip = togglePick(slip, pick('2', '1.80'));
    expect(slip.picks.map((item) => item.selectionId)).toEqual(['1']);
    expect(slip.tab).toBe('single');
  });

  it('returns stake × the product of the legs for an accumulator, read from a pt stake "10,50"', () => {
    const slip = setAccumulatorStake(withPicks(pick('1', '2.15'), pick('2', '1.80')), '10,50');
    const summary = summarise(slip, (text) => parseAmountInput(text, 'pt'));
    expect(summary.combinedOdds).toBe('3.87');
    expect(summary.bets).toHaveLength(1);
    expect(summary.bets[0]?.stake).toBe('10.50');
    // 10.50 × 3.87 = 40.635 → 40.63
    expect(summary.totalReturn).toBe('40.63');
  });

  it('reads each single stake in the reader’s digits ("1.000,00" in pt, "1,000.00" in en)', () => {
    let slip = withPicks(pick('1', '2.00'), pick('2', '3.00'));
    slip = { ...slip, tab: 'single' };
    slip = setSingleStake(setSingleStake(slip, '1', '1.000,00'), '2', '5');
    const pt = summarise(slip, (text) => parseAmountInput(text, 'pt'));
    expect(pt.bets.map((bet) => [bet.stake, bet.potentialReturn])).toEqual([
      ['1000.00', '2000.00'],
      ['5.00', '15.00'],
    ]);
    expect(pt.totalStake).toBe('1005.00');
    const en = summarise(setSingleStake(slip, '1', '1,000.00'), (text) => parseAmountInput(text, 'en'));
    expect(en.bets[0]?.stake).toBe('1000.00');
    // Not an amount: no bet is made of it.
    const bad = summarise(setSingleStake(slip, '1', 'dez'), (text) => parseAmountInput(text, 'pt'));
    expect(bad.bets.map((bet) => bet.legs[0]?.selectionId)).toEqual(['2']);
  });

  it('asks before taking a new price when the policy is "always ask", and accept or refuse settles it', () => {
    const slip = updatePrice(withPicks(pick('1', '2.15'), pick('2', '1.80')), '1', { odds: '2.05' });
    expect(pendingChanges(slip).map((item) => item.selectionId)).toEqual(['1']);
    expect(slip.picks[0]).toMatchObject({ odds: '2.15', currentOdds: '2.05', moved: 'down' });

    const accepted = acceptChanges(slip);
    expect(pendingChanges(accepted)).toEqual([]);
    expect(accepted.picks[0]?.odds).toBe('2.05');

    const refused = refuseChanges(slip);
    expect(refused.picks.map((item) => item.selectionId)).toEqual(['2']);
    expect(refused.tab).toBe('single');
  });

  it('takes higher prices at once under "accept higher odds" but still asks on a drop; "any" takes all', () => {
    const higher = setPolicy(withPicks(pick('1', '2.15')), 'higher');
    const up = updatePrice(higher, '1', { odds: '2.40' });
    expect(up.picks[0]).toMatchObject({ odds: '2.40', moved: 'up' });
    expect(pendingChanges(up)).toEqual([]);
    const down = updatePrice(up, '1', { odds: '2.10' });
    expect(down.picks[0]).toMatchObject({ odds: '2.40', currentOdds: '2.10', moved: 'down' });
    expect(pendingChanges(down)).toHaveLength(1);

    const any = updatePrice(setPolicy(withPicks(pick('1', '2.15')), 'any'), '1', { odds: '1.50' });
    expect(any.picks[0]?.odds).toBe('1.50');
    expect(pendingChanges(any)).toEqual([]);
  });

  it('marks a suspended selection and flags two selections of one match in an accumulator', () => {
    const slip = updatePrice(withPicks(pick('1', '2.15', 'e9'), pick('2', '1.80', 'e9')), '2', {
      suspended: true,
    });
    expect(slip.picks[1]?.suspended).toBe(true);
    expect(sameEventConflict(slip)).toBe(true);
  });
});
