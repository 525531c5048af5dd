import { describe, expect, it } from 'vitest';
import { ZAdminLoginRequest, ZForceOfflineRequest } from '../admin.ts';
import { ZLoginRequest, ZRegisterRequest } from '../auth.ts';
import { ERROR_CODES } from '../errors.ts';
import { LANGUAGES, normalizeLanguage } from '../languages.ts';
import { ZProfilePictureSetRequest, ZProfilePictureUserRequest } from '../user.ts';
import { M } from '../validation.ts';
import { isMessageKey, MESSAGES, translate } from './index.ts';

const englishKeys = Object.keys(MESSAGES.en).sort();

describe('message catalogue', () => {
  it.each(LANGUAGES)('%s has exactly the keys of en, none of them blank', (lang) => {
    expect(Object.keys(MESSAGES[lang]).sort()).toEqual(englishKeys);
    for (const text of Object.values(MESSAGES[lang])) expect(text.trim()).not.toBe('');
  });

  it.each(LANGUAGES.filter((lang) => lang !== 'en'))(
    '%s is really translated, not copied from en',
    (lang) => {
      const same = englishKeys.filter(
        (key) =>
          MESSAGES[lang][key as keyof typeof MESSAGES.en] === MESSAGES.en[key as keyof typeof MESSAGES.en],
      );
      // Only the protocol marker "Unauthenticated." is deliberately identical everywhere.
      expect(same).toEqual(['errors.UNAUTHENTICATED']);
    },
  );

  it('keeps the same {parameters} in every language', () => {
    for (const key of englishKeys) {
      const params = (text: string) => (text.match(/\{\w+(?::money)?\}/g) ?? []).sort();
      const expected = params(MESSAGES.en[key as keyof typeof MESSAGES.en]);
      for (const lang of LANGUAGES)
        expect(params(MESSAGES[lang][key as keyof typeof MESSAGES.en])).toEqual(expected);
    }
  });

  it('writes {name:money} parameters the way each language writes reais', () => {
    const min = (lang: (typeof LANGUAGES)[number]) =>
      translate(lang, 'errors.STAKE_TOO_SMALL_FOR_TARGET', { min: '1234.50' }).replace(/\u00a0/g, ' ');
    expect(min('pt')).toContain('R$ 1.234,50');
    expect(min('en')).toContain('R$1,234.50');
    expect(min('vi')).toContain('1.234,50 R$');
    // A parameter that is not a money text is left as given.
    expect(translate('en', 'errors.BET_OUT_OF_RANGE', { min: 'x', max: '5000.00' })).toBe(
      'The bet must be between x and R$5,000.00',
    );
  });

  it('has a message for every error code', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(isMessageKey(`errors.${code}`)).toBe(true);
  });

  it('has every static message key the schemas use', () => {
    for (const value of Object.values(M)) {
      if (typeof value === 'string') expect(isMessageKey(value), value).toBe(true);
    }
  });

  it('has a message for every issue the request schemas can raise on bad input', () => {
    const inputs: unknown[] = [
      {},
      { username: 5, password: [], password_confirmation: {}, realname: 1, phone: true, qk_pwd: 12 },
      { username: 'x'.repeat(500), password: 'y'.repeat(500), realname: '?!', phone: '123', qk_pwd: '12a' },
      { username: 'good_name', password: 'secret1', password_confirmation: 'secret2', invite_code: 'a-b' },
      { agree_terms: false, is_adult: 'yes', captcha_code: 'x'.repeat(20) },
    ];
    const schemas = [
      ZRegisterRequest,
      ZLoginRequest,
      ZAdminLoginRequest,
      ZForceOfflineRequest,
      ZProfilePictureSetRequest,
      ZProfilePictureUserRequest,
    ];
    for (const schema of schemas) {
      for (const input of inputs) {
        const result = schema.safeParse(input);
        for (const issue of result.error?.issues ?? []) {
          if (issue.path.length > 0) expect(isMessageKey(issue.message), issue.message).toBe(true);
        }
      }
    }
    expect(ZProfilePictureUserRequest.safeParse({ member_id: 'abc' }).error?.issues[0]?.message).toBe(
      M.wrongType,
    );
  });

  it('translates, fills parameters and accepts the zh_cn alias', () => {
    expect(translate('en', M.passwordsMismatch)).toBe('The two passwords entered do not match!');
    expect(translate('pt', 'errors.TOO_MANY_ATTEMPTS', { minutes: 15 })).toContain('15 minuto');
    expect(translate(normalizeLanguage('zh_cn')!, 'validation.required.password')).toBe('请输入密码');
    expect(translate('ch', 'validation.required.password')).toBe('請輸入密碼');
  });

  it('never shows a raw key for an unknown key', () => {
    expect(translate('en', 'no.such.key')).toBe('Please enter the correct parameters');
    expect(translate('en', 'toString')).toBe('Please enter the correct parameters');
  });
});
