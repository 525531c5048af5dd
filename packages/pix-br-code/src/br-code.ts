/**
 * EMV® QRCPS "BR Code" payloads for PIX (Manual de Padrões para Iniciação do Pix, BCB).
 *
 * A payload is a sequence of TLV fields: two-digit id, two-digit length, value. Field 63 closes it
 * with a CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out) computed over the
 * whole payload including the "6304" of field 63 itself, written as four upper-case hex digits.
 *
 * Pure functions only: no I/O, no clock.
 */

const GUI_PIX = 'br.gov.bcb.pix';
const MAX_FIELD_LENGTH = 99;
/** The copy-and-paste code is capped at 512 characters by the API Pix (`pixCopiaECola`). */
export const MAX_PAYLOAD_LENGTH = 512;
const MERCHANT_NAME_MAX = 25;
const MERCHANT_CITY_MAX = 15;
/** EMV limits the reference label (62-05) to 25 characters. */
const REFERENCE_LABEL_MAX = 25;

/** CRC16-CCITT-FALSE over the UTF-8 bytes of `text`. */
export function crc16(text: string): number {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

function crcHex(text: string): string {
  return crc16(text).toString(16).toUpperCase().padStart(4, '0');
}

function field(id: string, value: string): string {
  if (value.length === 0 || value.length > MAX_FIELD_LENGTH) {
    throw new RangeError(`BR Code field ${id} must have 1..${MAX_FIELD_LENGTH} characters`);
  }
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/**
 * Names and cities travel as plain ASCII: payer apps differ in how they count multi-byte
 * characters, so accents are stripped and anything outside printable ASCII is dropped.
 */
export function toBrCodeText(text: string, maxLength: number): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
  return ascii.slice(0, maxLength).trim();
}

interface CommonFields {
  merchantName: string;
  merchantCity: string;
  /** Merchant Category Code; "0000" when not informed, as the BCB manual allows. */
  mcc?: string;
  /** Amount as the API Pix writes it ("123.45"); omitted when the payer chooses the amount. */
  amount?: string;
}

export interface DynamicBrCode extends CommonFields {
  /** The payload location without scheme, e.g. "127.0.0.1:4010/qr/v2/9d36b84f...". */
  location: string;
}

export interface StaticBrCode extends CommonFields {
  /** The receiver's DICT key. */
  key: string;
  /** Up to 25 characters [a-zA-Z0-9]; "***" when absent. */
  txid?: string;
}

function assemble(
  merchantAccount: string,
  pointOfInitiation: string | null,
  options: CommonFields,
  referenceLabel: string,
): string {
  const name = toBrCodeText(options.merchantName, MERCHANT_NAME_MAX);
  const city = toBrCodeText(options.merchantCity, MERCHANT_CITY_MAX);
  if (!name || !city) throw new RangeError('BR Code needs a merchant name and city');
  const mcc = options.mcc ?? '0000';
  if (!/^\d{4}$/.test(mcc)) throw new RangeError('MCC must be 4 digits');
  if (options.amount !== undefined && !/^\d{1,10}\.\d{2}$/.test(options.amount)) {
    throw new RangeError('amount must look like "123.45"');
  }
  const body =
    field('00', '01') +
    (pointOfInitiation ? field('01', pointOfInitiation) : '') +
    field('26', merchantAccount) +
    field('52', mcc) +
    field('53', '986') +
    (options.amount !== undefined ? field('54', options.amount) : '') +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    field('62', field('05', referenceLabel)) +
    '6304';
  const payload = body + crcHex(body);
  if (payload.length > MAX_PAYLOAD_LENGTH) throw new RangeError('BR Code payload too long');
  return payload;
}

/**
 * A dynamic code points at the charge's location; the payer's bank fetches the charge from there.
 * The txid lives in that charge, so field 62-05 carries "***" as the BCB manual prescribes for
 * dynamic codes (API Pix txids are 26-35 characters, longer than the 25 EMV allows in 62-05).
 * Point of initiation "12": the code is for one payment only.
 */
export function buildDynamicBrCode(options: DynamicBrCode): string {
  const location = options.location.replace(/^https?:\/\//, '');
  return assemble(field('00', GUI_PIX) + field('25', location), '12', options, '***');
}

/** A static code carries the DICT key itself and, optionally, a short txid in 62-05. */
export function buildStaticBrCode(options: StaticBrCode): string {
  const txid = options.txid ?? '***';
  if (txid !== '***' && !new RegExp(`^[a-zA-Z0-9]{1,${REFERENCE_LABEL_MAX}}$`).test(txid)) {
    throw new RangeError('static txid must be 1..25 characters [a-zA-Z0-9]');
  }
  return assemble(field('00', GUI_PIX) + field('01', options.key), null, options, txid);
}

export type BrCodeFields = Map<string, string>;

/** Splits one level of TLV fields. Returns null when the text is not well-formed TLV. */
export function parseTlv(text: string): BrCodeFields | null {
  const fields: BrCodeFields = new Map();
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const lengthText = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(lengthText)) return null;
    const length = Number(lengthText);
    const value = text.slice(at + 4, at + 4 + length);
    if (value.length !== length || fields.has(id)) return null;
    fields.set(id, value);
    at += 4 + length;
  }
  return fields;
}

/** True when the payload is well-formed TLV, starts with "000201" and its field 63 CRC matches. */
export function isValidBrCode(payload: string): boolean {
  if (payload.length > MAX_PAYLOAD_LENGTH || !payload.startsWith('000201')) return false;
  const fields = parseTlv(payload);
  if (!fields) return false;
  const crc = fields.get('63');
  if (!crc || !payload.endsWith(`6304${crc}`)) return false;
  return crcHex(payload.slice(0, -4)) === crc.toUpperCase();
}
