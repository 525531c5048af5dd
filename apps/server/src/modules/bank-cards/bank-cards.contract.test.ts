import {
  isMessageKey,
  MESSAGES,
  ZAllBalanceQuery,
  ZBankCardAddRequest,
  ZBankCardDeleteRequest,
  ZOrderCenterQuery,
  ZTransactionRecordRequest,
} from '@sorte/contract';
import { describe, expect, it } from 'vitest';

/** The contract schemas of bank cards and records answer bad input with catalogue keys only. */
describe('bank card and record schemas', () => {
  const inputs: unknown[] = [
    undefined,
    null,
    {},
    [],
    'text',
    {
      account_type: 'IBAN',
      name: 5,
      account: [],
      cpf_id: {},
      account_no: 'a b',
      bank_name: '<b>',
      is_default: 'y',
    },
    { account_type: '', name: ' ', account: ' ', cpf_id: ' ' },
    {
      name: 'x'.repeat(1000),
      account: 'y'.repeat(1000),
      cpf_id: 'z'.repeat(1000),
      bank_name: 'w'.repeat(1000),
    },
    { id: 'abc' },
    { id: -5 },
    { id: 1.5 },
    { id: '9'.repeat(40) },
    { period: 'yesterday', cursor: 'bad cursor', page_size: 0 },
    { period: 5, cursor: 'x'.repeat(300), page_size: 1000 },
    { currency: 5, platType: 'p'.repeat(100), lang: 'x'.repeat(100) },
  ];
  const schemas = {
    ZBankCardAddRequest,
    ZBankCardDeleteRequest,
    ZTransactionRecordRequest,
    ZOrderCenterQuery,
    ZAllBalanceQuery,
  };

  it.each(Object.entries(schemas))('%s raises only translated messages', (_name, schema) => {
    for (const input of inputs) {
      const result = schema.safeParse(input);
      for (const issue of result.error?.issues ?? []) {
        // `lang` belongs to the shared ZLangQuery; the error handler maps its issues itself.
        if (issue.path.length > 0 && issue.path[0] !== 'lang')
          expect(isMessageKey(issue.message), `${JSON.stringify(input)}: ${issue.message}`).toBe(true);
      }
    }
  });

  it('has every new message in all eight languages', () => {
    const keys = Object.keys(MESSAGES.en).filter((key) =>
      /bank_card|BANK_CARD|CPF_IN_USE|CURRENCY_UNSUPPORTED|cursor_invalid|plat_type|pix_|evp_|cnpj_|cpf_invalid|email_invalid|payee_format|account_no_format|account_type_invalid|bank_name_format/.test(
        key,
      ),
    );
    expect(keys.length).toBeGreaterThanOrEqual(19);
    for (const catalogue of Object.values(MESSAGES)) {
      for (const key of keys) expect(catalogue[key as keyof typeof catalogue].trim()).not.toBe('');
    }
  });

  it('reads the spec required-field messages for an empty bank card form', () => {
    const issues = ZBankCardAddRequest.safeParse({}).error?.issues ?? [];
    expect(Object.fromEntries(issues.map((issue) => [issue.path.join('.'), issue.message]))).toEqual({
      account_type: 'validation.required.type',
      name: 'validation.required.name',
      account: 'validation.required.bank_account',
      cpf_id: 'validation.required.cpf',
    });
  });
});
