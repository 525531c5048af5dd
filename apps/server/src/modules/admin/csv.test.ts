import { describe, expect, it } from 'vitest';
import { pageOf, toCsv } from './csv.ts';

describe('admin CSV export', () => {
  it('quotes separators, quotes and new lines, and neutralises formulas', () => {
    const csv = toCsv(
      [
        { header: 'name', value: (row: { name: string; amount: string }) => row.name },
        { header: 'amount', value: (row) => row.amount },
      ],
      [
        { name: 'Silva, Maria', amount: '-12.50' },
        { name: 'say "hi"\nthere', amount: '3' },
        { name: '=HYPERLINK("x")', amount: '0' },
      ],
    );
    expect(csv).toBe(
      'name,amount\r\n"Silva, Maria",-12.50\r\n"say ""hi""\nthere",3\r\n"\'=HYPERLINK(""x"")",0\r\n',
    );
  });

  it('pages JSON and reads every row for CSV', () => {
    expect(pageOf({ page: 3, page_size: 10 })).toMatchObject({ csv: false, limit: 10, offset: 20 });
    expect(pageOf({ page: 3, format: 'csv' })).toMatchObject({ csv: true, offset: 0, limit: 50_000 });
  });
});
