import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './errors.ts';

const violation = (constraint: string | undefined, message = '') => ({ code: '23505', constraint, message });

describe('isUniqueViolation', () => {
  it('names the constraint by its name (node-postgres) or in the message (PGlite, wrappers)', () => {
    expect(isUniqueViolation(violation('members_site_cpf'), 'members_site_cpf')).toBe(true);
    expect(isUniqueViolation(violation('members_site_username_lower'), 'username')).toBe(true);
    const pglite = violation(
      undefined,
      'duplicate key value violates unique constraint "member_bank_cards_active_key"',
    );
    expect(isUniqueViolation(pglite, 'member_bank_cards_active_key')).toBe(true);
    expect(isUniqueViolation(violation('members_site_cpf'), 'invite_code')).toBe(false);
  });

  it('finds the violation anywhere in the cause chain, past a violation of another constraint', () => {
    const inner = violation('member_bank_cards_active_key');
    const other = { ...violation('member_bank_cards_one_default'), cause: inner };
    expect(
      isUniqueViolation(new Error('Failed query', { cause: other }), 'member_bank_cards_active_key'),
    ).toBe(true);
  });

  it('is false for other errors and other SQLSTATEs, and stops on a cause cycle', () => {
    expect(isUniqueViolation(new Error('boom'), 'members_site_cpf')).toBe(false);
    expect(isUniqueViolation({ code: '23503', constraint: 'members_site_cpf' }, 'members_site_cpf')).toBe(
      false,
    );
    expect(isUniqueViolation(null, 'x')).toBe(false);
    const cycle: { code: string; cause?: unknown } = { code: '40001' };
    cycle.cause = cycle;
    expect(isUniqueViolation(cycle, 'x')).toBe(false);
  });
});
