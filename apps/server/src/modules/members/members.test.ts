import { describe, expect, it } from 'vitest';
import { INVITE_CODE_LENGTH, newInviteCode } from './invite-code.ts';
import { levelName } from './member-info.ts';

describe('invite codes', () => {
  it('are 8 unambiguous upper-case characters', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = newInviteCode();
      expect(code).toHaveLength(INVITE_CODE_LENGTH);
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]+$/);
    }
  });
});

describe('levelName', () => {
  it('names the VIP tiers of spec §6 and clamps out-of-range levels', () => {
    expect([0, 1, 2, 3, 4, 5].map(levelName)).toEqual([
      'Member',
      'Bronze',
      'Silver',
      'Gold',
      'Platinum',
      'Diamond',
    ]);
    expect(levelName(-3)).toBe('Member');
    expect(levelName(99)).toBe('Diamond');
  });
});
