import { formatMinor, M, type TWithdrawInfoResponse, ZQkPwd } from '@sorte/contract';
import { z } from 'zod';
import { ZLocalMoneyInput } from '../../lib/amount-field.ts';
import { formatMoney } from '../../lib/format.ts';
import { quoteWithdrawal } from './withdraw-fee.ts';

type TTranslate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The withdraw form: the contract's field schemas (amount format, 6-digit password, a chosen card)
 * plus the page's server data — bounds, what is withdrawable now, the fee — so the form refuses
 * what the server would refuse, with a message that says why.
 */
export function withdrawFormSchema(info: TWithdrawInfoResponse, t: TTranslate) {
  return z
    .object({
      money: ZLocalMoneyInput('amount'),
      member_bank_id: z.string().min(1, { error: M.required('member_bank_id') }),
      qk_pwd: ZQkPwd,
      /** Only asked of a player without a withdrawal password: this withdrawal sets it. */
      qk_pwd_confirmation: z.string().optional(),
    })
    .superRefine((values, ctx) => {
      if (!info.has_qk_pwd && values.qk_pwd_confirmation !== values.qk_pwd) {
        ctx.addIssue({
          code: 'custom',
          path: ['qk_pwd_confirmation'],
          message: 'validation.passwords_did_not_match',
        });
      }
      const quote = quoteWithdrawal(formatMinor(values.money), info);
      if (quote.ok) return;
      const message =
        quote.reason === 'range'
          ? t('money.amount_out_of_range', {
              min: formatMoney(info.min_money),
              max: formatMoney(info.max_money),
            })
          : quote.reason === 'funds'
            ? t('money.not_enough_withdrawable', { amount: formatMoney(info.withdrawable) })
            : quote.reason === 'fee'
              ? t('money.fee_exceeds_amount')
              : 'validation.amount_invalid';
      ctx.addIssue({ code: 'custom', path: ['money'], message });
    });
}

export type TWithdrawFormInput = z.input<ReturnType<typeof withdrawFormSchema>>;
export type TWithdrawFormOutput = z.output<ReturnType<typeof withdrawFormSchema>>;
