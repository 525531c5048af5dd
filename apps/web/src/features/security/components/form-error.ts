import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';

/** Field errors of a refused call go under their fields; anything else is a toast. */
export function showFailure(error: unknown, setFields: (fields: Record<string, string>) => void): void {
  if (!(error instanceof ApiError)) return;
  if (Object.keys(error.errors).length > 0) setFields(error.errors);
  else toast.error(error.message);
}
