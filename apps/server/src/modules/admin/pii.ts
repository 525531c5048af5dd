import type { TOperatorAuth } from '../../core/audit.ts';
import { maskCpf, maskEmail, maskIp, maskPhone } from '../../core/pii-masks.ts';
import { roleCan } from './permissions.ts';

/**
 * Players' personal data by role (LGPD data minimisation, ADR 022): an operator without the
 * `players.pii` permission gets CPF, e-mail, phone, PIX keys and IP addresses masked by the server, so the full
 * value never reaches their browser or their CSV files. One helper for every back-office answer; the
 * masks themselves are core/pii-masks.ts, the same ones the player's own screens use.
 */

/** Whether this operator sees players' personal data in full. */
export function seesPii(operator: Pick<TOperatorAuth, 'role'>): boolean {
  return roleCan(operator.role, 'players.pii');
}

/** An IP address as this operator may see it. */
export function ipFor(ip: string | null, pii: boolean): string | null {
  return ip === null || pii ? ip : maskIp(ip);
}

type TContact = { cpf: string | null; phone: string; email: string | null; register_ip?: string | null };

/** A player row as this operator may see it: unchanged with `players.pii`, else masked. */
export function playerContactFor<T extends TContact>(row: T, pii: boolean): T {
  if (pii) return row;
  return {
    ...row,
    cpf: row.cpf === null ? null : maskCpf(row.cpf),
    phone: maskPhone(row.phone),
    email: row.email === null ? null : maskEmail(row.email),
    ...(row.register_ip === undefined ? {} : { register_ip: ipFor(row.register_ip, false) }),
  };
}
