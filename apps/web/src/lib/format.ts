import { CURRENCY } from '@sorte/contract';

/**
 * Money arrives as the contract's decimal string ("1234.56"). We show it as is — never through a
 * float — and fall back to "0.00" for anything that is not one.
 */
export function formatMoney(value: string | null | undefined): string {
  return value && /^-?\d{1,13}\.\d{2}$/.test(value) ? value : '0.00';
}

export { CURRENCY };
