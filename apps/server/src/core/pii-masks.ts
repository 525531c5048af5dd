import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * How Sorte shows personal data with its middle hidden: the rules of ADR 022 (LGPD data
 * minimisation), one set for the back office (operators without `players.pii`) and for the player's
 * own screens (saved PIX keys, withdrawal records).
 */

/** "12345678909" or "123.456.789-09" → "***.456.789-**" (the middle six digits, as receipts print it). */
export function maskCpf(cpf: string): string {
  const digits = cpf.replace(/\D/g, '');
  return digits.length === 11 ? `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**` : '***';
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
 * A PIX key masked by its type (pix_key_type: CPF, CNPJ, EVP, PHONE, EMAIL): CPF, e-mail and phone
 * as above; a CNPJ keeps its first two digits and its branch (0001), a random key its first eight
 * and last four characters.
 */
export function maskPixKey(type: string, key: string): string {
  const kind = type.toUpperCase();
  if (kind === 'CPF') return maskCpf(key);
  if (kind === 'EMAIL') return maskEmail(key);
  if (kind === 'PHONE') return maskPhone(key);
  if (kind === 'CNPJ') return `${key.slice(0, 2)}.***.***/${key.slice(8, 12)}-**`;
  if (kind === 'EVP') return `${key.slice(0, 8)}-****-****-****-${key.slice(-4)}`;
  return '***';
}

/** "203.0.113.45" → "203.0.*.*"; "2001:db8:85a3::8a2e:370:7334" → "2001:db8:*" (the network, not the host). */
export function maskIp(ip: string): string {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return `${ip.split('.').slice(0, 2).join('.')}.*.*`;
  if (ip.includes(':')) return `${ip.split(':').slice(0, 2).join(':')}:*`;
  return '***';
}
