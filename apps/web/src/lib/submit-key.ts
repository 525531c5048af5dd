import { useRef } from 'react';

/**
 * The Idempotency-Key of a money form: one key per intended request. Submitting the same fields
 * again (a double tap, a retry after the answer was lost) sends the same key, so the server makes
 * one order; other fields, or a submit after a success, get a new key.
 */
export class SubmitKey {
  private key: string | null = null;
  private fields: string | null = null;

  constructor(private readonly draw: () => string = () => crypto.randomUUID()) {}

  /** The key for a submit of `body` (compared by its JSON). */
  for(body: unknown): string {
    const fields = JSON.stringify(body);
    if (this.key === null || fields !== this.fields) {
      this.key = this.draw();
      this.fields = fields;
    }
    return this.key;
  }

  /** The request was answered with an order: the next submit is a new request. */
  done(): void {
    this.key = null;
    this.fields = null;
  }
}

export function useSubmitKey(): SubmitKey {
  const ref = useRef<SubmitKey | null>(null);
  ref.current ??= new SubmitKey();
  return ref.current;
}
