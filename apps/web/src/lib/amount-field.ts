import { ZMoneyInput } from '@sorte/contract';
import { z } from 'zod';
import { parseAmountInput } from './format.ts';

/**
 * An amount field of a form: the text as the player types it in their language ("1.234,56" in pt)
 * is read into the contract's decimal text first, then checked by the contract's own schema, so the
 * browser and the server refuse the same amounts with the same messages.
 */
export const ZLocalMoneyInput = (field: string) =>
  z.preprocess((value) => (typeof value === 'string' ? parseAmountInput(value) : value), ZMoneyInput(field));
