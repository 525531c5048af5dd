import type { TBankAccountType } from '@sorte/contract';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { TOperatorAuth } from '../../core/audit.ts';
import { maskCpf as maskCpfDigits, maskPixKey as maskPlayerPixKey } from '../bank-cards/pix-key.ts';
import { roleCan } from './permissions.ts';

/**
 * Players' personal data by role (LGPD data minimisation, ADR 022): an operator without the
 * `players.pii` permission gets CPF, e-mail, phone, PIX keys and IP addresses masked by the server, so the full
 * value never reaches their browser or their CSV files. One helper for every back-office answer.
 */

/** Whether this operator sees players' personal data in full. */
export function seesPii(operator: Pick<TOperatorAuth, 'role'>): boolean {
  return roleCan(operator.role, 'players.pii');
}

/** "12345678909" or "123.456.789-09" → "***.456.789-**" (the middle six digits, as receipts print it). */
export function maskCpf(cpf: string): string {
  const digits = cpf.replace(/\D/g, '');
  return digits.length === 11 ? maskCpfDigits(digits) : '***';
}

/** "joao.silva@dominio.com.br" → "j***@d***.com.br": first letters only, the domain's suffix kept. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const local = email.slice(0, at);
  const [name = '', ...suffix] = email.slice(at + 1).split('.');
  const domain = name ? `${name.slice(0, 1)}***` : '***';
  return `${local.slice(0, 1)}***@${[domain, ...suffix].join('.')}`;
}

/**
 * "+5511987654321" → "+55 11 *****-4321" (Brazil: country, area code and the last four digits);
 * another country's number keeps its country code and last four digits: "+44 ******4321".
 */
export function maskPhone(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone, 'BR');
  if (!parsed) {
    const digits = phone.replace(/\D/g, '');
    return digits.length >= 8 ? `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}` : '***';
  }
  const national = String(parsed.nationalNumber);
  if (national.length < 8) return '***';
  const last = national.slice(-4);
  if (parsed.countryCallingCode === '55' && national.length >= 10) {
    return `+55 ${national.slice(0, 2)} ${'*'.repeat(national.length - 6)}-${last}`;
  }
  return `+${parsed.countryCallingCode} ${'*'.repeat(national.length - 4)}${last}`;
}

/**
 * A PIX key masked by its type (withdrawal_orders.pix_key_type: CPF, CNPJ, EVP, PHONE, EMAIL): CPF,
 * e-mail and phone as above; CNPJ and random keys as the player's own screens show them.
 */
export function maskPixKey(type: string, key: string): string {
  const kind = type.toUpperCase();
  if (kind === 'CPF') return maskCpf(key);
  if (kind === 'EMAIL') return maskEmail(key);
  if (kind === 'PHONE') return maskPhone(key);
  if (kind === 'CNPJ' || kind === 'EVP') return maskPlayerPixKey(kind as TBankAccountType, key);
  return '***';
}

/** "203.0.113.45" → "203.0.*.*"; "2001:db8:85a3::8a2e:370:7334" → "2001:db8:*" (the network, not the host). */
export function maskIp(ip: string): string {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return `${ip.split('.').slice(0, 2).join('.')}.*.*`;
  if (ip.includes(':')) return `${ip.split(':').slice(0, 2).join(':')}:*`;
  return '***';
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
