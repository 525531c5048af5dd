import { CURRENCY } from '@sorte/contract';

/**
 * Money arrives as the contract's decimal string ("1234.56"). We show it as is — never through a
 * float — and fall back to "0.00" for anything that is not one.
 */
export function formatMoney(value: string | null | undefined): string {
  return value && /^-?\d{1,13}\.\d{2}$/.test(value) ? value : '0.00';
}

export { CURRENCY };

/** The server names VIP levels in English (Member, Bronze…); known names are shown translated. */
export function levelLabel(
  translate: (key: string, options: { defaultValue: string }) => string,
  name: string,
) {
  return name ? translate(`vip_levels.${name.toLowerCase()}`, { defaultValue: name }) : '';
}
