import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildDynamicBrCode,
  buildStaticBrCode,
  crc16,
  isValidBrCode,
  parseTlv,
  toBrCodeText,
} from './br-code.ts';

/** The static example of the BCB "Manual de Padrões para Iniciação do Pix". */
const BCB_MANUAL_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

/** A code published in the wild (CNPJ key, description in 26-02, txid in 62-05). */
const PUBLISHED_WITH_TXID =
  '00020126740014br.gov.bcb.pix0114228402150001530234Comunidade Evangelica Semear Bauru5204000053039865802BR5925COMUNIDADE EVANGELICA SEM6005BAURU62290525AoWEmu48P2fjmZ0fAXkFdY4Aq630405AD';

describe('crc16', () => {
  it('matches the CRC-16/CCITT-FALSE check value for "123456789"', () => {
    expect(crc16('123456789')).toBe(0x29b1);
  });

  it('starts from 0xFFFF for an empty input', () => {
    expect(crc16('')).toBe(0xffff);
  });
});

describe('isValidBrCode', () => {
  it('accepts the BCB manual example and a published code', () => {
    expect(isValidBrCode(BCB_MANUAL_STATIC)).toBe(true);
    expect(isValidBrCode(PUBLISHED_WITH_TXID)).toBe(true);
  });

  it('rejects a code whose content was altered after the CRC was computed', () => {
    expect(isValidBrCode(BCB_MANUAL_STATIC.replace('Fulano', 'Fulana'))).toBe(false);
  });

  it('rejects a wrong CRC and broken TLV', () => {
    expect(isValidBrCode(`${BCB_MANUAL_STATIC.slice(0, -4)}0000`)).toBe(false);
    expect(isValidBrCode('000201269')).toBe(false);
    expect(isValidBrCode('')).toBe(false);
  });
});

describe('buildStaticBrCode', () => {
  it('reproduces the BCB manual example byte for byte', () => {
    const code = buildStaticBrCode({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    expect(code).toBe(BCB_MANUAL_STATIC);
  });

  it('puts a short txid into field 62-05 and refuses one longer than 25 characters', () => {
    const code = buildStaticBrCode({ key: 'a@b.com', merchantName: 'X', merchantCity: 'Y', txid: 'ABC123' });
    expect(parseTlv(parseTlv(code)!.get('62')!)!.get('05')).toBe('ABC123');
    expect(() =>
      buildStaticBrCode({ key: 'a@b.com', merchantName: 'X', merchantCity: 'Y', txid: 'A'.repeat(26) }),
    ).toThrow(RangeError);
  });
});

describe('buildDynamicBrCode', () => {
  const code = buildDynamicBrCode({
    location: 'https://127.0.0.1:4010/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
    merchantName: 'Sorte Jogos Ltda',
    merchantCity: 'São Paulo',
  });
  const fields = parseTlv(code)!;

  it('is a valid single-use code with the PIX GUI and the location without scheme', () => {
    expect(isValidBrCode(code)).toBe(true);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('01')).toBe('12');
    const account = parseTlv(fields.get('26')!)!;
    expect(account.get('00')).toBe('br.gov.bcb.pix');
    expect(account.get('25')).toBe('127.0.0.1:4010/qr/v2/9d36b84fc70b478fb95c12729b90ca25');
  });

  it('carries MCC, BRL, country, ASCII merchant name and city, and "***" in 62-05', () => {
    expect(fields.get('52')).toBe('0000');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('Sorte Jogos Ltda');
    expect(fields.get('60')).toBe('Sao Paulo');
    expect(parseTlv(fields.get('62')!)!.get('05')).toBe('***');
    expect(fields.has('54')).toBe(false);
  });

  it('writes an amount in field 54 when one is given and rejects a malformed amount', () => {
    const withAmount = buildDynamicBrCode({
      location: 'x/y',
      merchantName: 'A',
      merchantCity: 'B',
      amount: '10.50',
    });
    expect(parseTlv(withAmount)!.get('54')).toBe('10.50');
    expect(() =>
      buildDynamicBrCode({ location: 'x/y', merchantName: 'A', merchantCity: 'B', amount: '10.5' }),
    ).toThrow(RangeError);
  });
});

describe('toBrCodeText', () => {
  it('strips accents and non-ASCII characters and truncates', () => {
    expect(toBrCodeText('  Ação Çedilha 漢字 ', 25)).toBe('Acao Cedilha');
    expect(toBrCodeText('abcdefghijklmnopqrstuvwxyz', 15)).toBe('abcdefghijklmno');
  });
});

describe('BR Code properties', () => {
  it('every dynamic code built from arbitrary names and locations is valid and round-trips its fields', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /[A-Za-z0-9]/.test(s)),
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => /[A-Za-z0-9]/.test(s)),
        fc.stringMatching(/^[a-z0-9.:]{1,30}\/qr\/v2\/[0-9a-f]{32}$/),
        (name, city, location) => {
          const code = buildDynamicBrCode({ location, merchantName: name, merchantCity: city });
          expect(isValidBrCode(code)).toBe(true);
          const fields = parseTlv(code)!;
          expect(parseTlv(fields.get('26')!)!.get('25')).toBe(location);
          expect(fields.get('59')).toBe(toBrCodeText(name, 25));
          expect(fields.get('60')).toBe(toBrCodeText(city, 15));
        },
      ),
    );
  });

  it('any single-character change breaks the CRC check', () => {
    const code = buildDynamicBrCode({ location: 'h/qr/v2/0123', merchantName: 'Sorte', merchantCity: 'Rio' });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: code.length - 5 }),
        fc.constantFrom(...'ABCxyz019'),
        (at, char) => {
          fc.pre(code[at] !== char);
          const changed = code.slice(0, at) + char + code.slice(at + 1);
          expect(isValidBrCode(changed)).toBe(false);
        },
      ),
    );
  });
});
