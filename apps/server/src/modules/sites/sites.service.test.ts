import { describe, expect, it } from 'vitest';
import { siteLanguages, type TSite } from '../../core/site.ts';
import { normalizeHost } from './sites.service.ts';

describe('normalizeHost', () => {
  it('lower-cases and strips the port and a trailing dot', () => {
    expect(normalizeHost('LocalHost:3000')).toBe('localhost');
    expect(normalizeHost('br.localhost.')).toBe('br.localhost');
    expect(normalizeHost('127.0.0.1:80')).toBe('127.0.0.1');
    expect(normalizeHost('[::1]:3000')).toBe('[::1]');
  });

  it('rejects anything that is not a host name', () => {
    for (const bad of [undefined, '', 'bad host', 'a/b', "x'; drop table", 'x'.repeat(300), '[::1']) {
      expect(normalizeHost(bad)).toBeNull();
    }
  });
});

describe('siteLanguages', () => {
  it('puts the default first and drops unknown codes', () => {
    const site = { defaultLang: 'pt', languages: ['en', 'pt', 'xx', 'cn'] } as TSite;
    expect(siteLanguages(site)).toEqual(['pt', 'en', 'cn']);
  });
});
