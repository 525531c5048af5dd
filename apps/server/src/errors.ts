import { ERROR_CODES, type TErrorCode } from '@sorte/contract';

/**
 * The one error type handlers and services throw for an expected failure. `code` is stable (the
 * client branches on it) and maps to an HTTP status in ERROR_CODES; the message shown is the
 * translation of `messageKey` (default `errors.<code>`) in the request's language.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: TErrorCode;
  readonly statusCode: number;
  readonly messageKey: string;
  readonly params: Record<string, string | number> | undefined;
  /** Field → i18n key, for VALIDATION_FAILED. */
  readonly fieldErrors: Record<string, string> | undefined;
  /** Extra envelope fields (e.g. `force_offline: true` on a 401). */
  readonly extra: Record<string, unknown> | undefined;
  /** Response headers to add (e.g. Retry-After). */
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: TErrorCode,
    options: {
      messageKey?: string;
      params?: Record<string, string | number>;
      fieldErrors?: Record<string, string>;
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(options.messageKey ?? `errors.${code}`, { cause: options.cause });
    this.code = code;
    this.statusCode = ERROR_CODES[code];
    this.messageKey = options.messageKey ?? `errors.${code}`;
    this.params = options.params;
    this.fieldErrors = options.fieldErrors;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** A single-field validation failure raised by a service (e.g. an unknown picture id). */
export function fieldError(field: string, messageKey: string): AppError {
  return new AppError('VALIDATION_FAILED', { messageKey, fieldErrors: { [field]: messageKey } });
}
