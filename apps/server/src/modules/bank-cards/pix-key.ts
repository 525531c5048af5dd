import type { TBankAccountType } from '@sorte/contract';

/** A key for display with its middle hidden: "***.982.247-**", "+55 11 *****-4321", "ma***@x.com". */
export function maskPixKey(type: TBankAccountType, key: string): string {
  switch (type) {
    case 'CPF':
      return maskCpf(key);
    case 'CNPJ':
      return `${key.slice(0, 2)}.***.***/${key.slice(8, 12)}-**`;
    case 'EVP':
      return `${key.slice(0, 8)}-****-****-****-${key.slice(-4)}`;
    case 'PHONE':
      return `${key.slice(0, 5)}*****${key.slice(-4)}`;
    case 'EMAIL': {
      const at = key.indexOf('@');
      return `${key.slice(0, Math.min(2, at))}***${key.slice(at)}`;
    }
  }
}

/** "***.982.247-**": the usual way Brazilian sites show a CPF. */
export function maskCpf(cpf: string): string {
  return `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
}
