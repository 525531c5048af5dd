import { ZBankCardAddRequest } from '@sorte/contract';
import { pixKeyProblem, validCpf } from './pix-key.ts';

/**
 * The add-card form's schema: the contract's request schema plus the key checks the server makes
 * (check digits, key formats, a CPF key equal to the CPF), reported on the field they concern with
 * the same catalogue messages the server would answer.
 */
export const ZBankCardForm = ZBankCardAddRequest.superRefine((card, ctx) => {
  const keyProblem = pixKeyProblem(card.account_type, card.account);
  if (keyProblem) ctx.addIssue({ code: 'custom', path: ['account'], message: keyProblem });
  const cpf = validCpf(card.cpf_id);
  if (!cpf) ctx.addIssue({ code: 'custom', path: ['cpf_id'], message: 'validation.cpf_invalid' });
  if (!keyProblem && cpf && card.account_type === 'CPF' && validCpf(card.account) !== cpf)
    ctx.addIssue({ code: 'custom', path: ['account'], message: 'validation.pix_cpf_mismatch' });
});
