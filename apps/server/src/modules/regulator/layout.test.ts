import { describe, expect, it } from 'vitest';
import { productOf, SORTE_V1, type TBetRecord, type TReportContext } from './layout.ts';

const context: TReportContext = {
  siteCode: 'br1',
  day: '2026-12-01',
  timeZone: 'America/Sao_Paulo',
  currency: 'BRL',
  periodStart: '2026-12-01T03:00:00.000Z',
  periodEnd: '2026-12-02T03:00:00.000Z',
  maxRecordsPerFile: 2,
};

const bet = (overrides: Partial<TBetRecord> = {}): TBetRecord => ({
  recordType: 'bet',
  transferId: '17',
  occurredAt: '2026-12-01T14:03:07.123456Z',
  playerId: '5',
  playerCpf: '12345678909',
  product: 'crash',
  reference: 'crash-round:9',
  wallet: 'cash',
  amountMinor: '1000',
  ...overrides,
});

describe('the sorte-v1 layout', () => {
  it('writes one JSON line per record, keys in order, and its own check accepts it', () => {
    const content = SORTE_V1.file(context, 'bets', [bet(), bet({ transferId: '18', recordType: 'win' })]);
    expect(content.split('\n')[0]).toBe(
      '{"record_type":"bet","transfer_id":"17","occurred_at":"2026-12-01T14:03:07.123456Z","local_date":"2026-12-01","player_id":"5","player_cpf":"12345678909","product":"crash","reference":"crash-round:9","wallet":"cash","amount_minor":"1000","currency":"BRL"}',
    );
    expect(SORTE_V1.validateFile(context, 'bets', content, 2)).toEqual([]);
    expect(SORTE_V1.fileName(context, 'bets', 1)).toBe('br1_20261201_bets_0001.jsonl');
    expect(SORTE_V1.manifestName(context)).toBe('br1_20261201_manifest.json');
  });

  it('finds an instant outside the day, a missing line feed, a wrong count and too many records', () => {
    const outside = SORTE_V1.file(context, 'bets', [bet({ occurredAt: '2026-12-02T03:00:00.000000Z' })]);
    expect(SORTE_V1.validateFile(context, 'bets', outside, 1)).toEqual(['line 1: occurred_at is not valid']);
    const one = SORTE_V1.file(context, 'bets', [bet()]);
    expect(SORTE_V1.validateFile(context, 'bets', one.slice(0, -1), 1)).toContain(
      'the file does not end with a line feed',
    );
    expect(SORTE_V1.validateFile(context, 'bets', one, 2)).toEqual(['1 records, 2 expected']);
    const three = SORTE_V1.file(context, 'bets', [bet(), bet(), bet()]);
    expect(SORTE_V1.validateFile(context, 'bets', three, 3)).toEqual(['3 records, more than 2']);
    expect(SORTE_V1.validateFile(context, 'transactions', one, 1)[0]).toMatch(/^line 1: fields are not/);
  });

  it('names the product from the reference prefix each module writes', () => {
    expect(
      ['round:1', 'crash-round:2', 'sports-bet:3', 'provider-round:4', 'grant:5'].map(productOf),
    ).toEqual(['casino_original', 'crash', 'sportsbook', 'third_party', 'other']);
  });
});
