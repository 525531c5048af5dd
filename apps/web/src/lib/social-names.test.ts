import { describe, expect, it } from 'vitest';
import { socialNetworkName } from './social-names.ts';

describe('social network names', () => {
  it('spells each network as it spells itself', () => {
    expect(['whatsapp', 'youtube', 'telegram', 'x', 'tiktok'].map(socialNetworkName)).toEqual([
      'WhatsApp',
      'YouTube',
      'Telegram',
      'X',
      'TikTok',
    ]);
    expect(socialNetworkName('kwai')).toBe('Kwai');
  });
});
