import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Every scope this sandbox grants, all named by the API Pix standard (its own payout API is
 * guarded by pix.write / pix.read); a client may ask for a subset, an unknown scope is refused.
 */
export const SCOPES = [
  'cob.write',
  'cob.read',
  'pix.read',
  'pix.write',
  'webhook.write',
  'webhook.read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Live tokens are bounded; the oldest is dropped first when a client keeps asking for new ones. */
const MAX_TOKENS = 1_000;

interface IssuedToken {
  scopes: ReadonlySet<string>;
  expiresAt: number;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function secretEquals(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

export type TokenResult =
  | { ok: true; body: { access_token: string; token_type: 'Bearer'; expires_in: number; scope: string } }
  | { ok: false; status: 400 | 401; body: { error: string; error_description: string } };

/** OAuth 2.0 client-credentials (RFC 6749 §4.4) as the API Pix requires, with opaque bearer tokens. */
export class TokenIssuer {
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  issue(input: { authorization: string | undefined; form: URLSearchParams }): TokenResult {
    const credentials = this.credentials(input.authorization, input.form);
    if (
      !credentials ||
      !secretEquals(credentials.id, this.clientId) ||
      !secretEquals(credentials.secret, this.clientSecret)
    ) {
      return {
        ok: false,
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client authentication failed.' },
      };
    }
    if (input.form.get('grant_type') !== 'client_credentials') {
      return {
        ok: false,
        status: 400,
        body: { error: 'unsupported_grant_type', error_description: 'Only client_credentials is supported.' },
      };
    }
    const requested = (input.form.get('scope') ?? '').split(' ').filter(Boolean);
    const unknown = requested.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0) {
      return {
        ok: false,
        status: 400,
        body: { error: 'invalid_scope', error_description: `Unknown scope: ${unknown[0]}` },
      };
    }
    const scopes = requested.length > 0 ? requested : [...SCOPES];
    this.prune();
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { scopes: new Set(scopes), expiresAt: this.now() + this.ttlSeconds * 1000 });
    return {
      ok: true,
      body: {
        access_token: token,
        token_type: 'Bearer',
        expires_in: this.ttlSeconds,
        scope: scopes.join(' '),
      },
    };
  }

  /** 'ok', or why the bearer token in the Authorization header does not allow `scope`. */
  check(authorization: string | undefined, scope: Scope): 'ok' | 'unauthenticated' | 'forbidden' {
    const match = /^Bearer ([A-Za-z0-9_-]{1,128})$/.exec(authorization ?? '');
    const token = match ? this.tokens.get(match[1]!) : undefined;
    if (!token || token.expiresAt <= this.now()) return 'unauthenticated';
    return token.scopes.has(scope) ? 'ok' : 'forbidden';
  }

  private credentials(authorization: string | undefined, form: URLSearchParams) {
    const basic = /^Basic ([A-Za-z0-9+/=]{1,1024})$/.exec(authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return null;
      // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
      try {
        return {
          id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
          secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
        };
      } catch {
        return null;
      }
    }
    const id = form.get('client_id');
    const secret = form.get('client_secret');
    return id !== null && secret !== null ? { id, secret } : null;
  }

  private prune(): void {
    const now = this.now();
    for (const [token, issued] of this.tokens) if (issued.expiresAt <= now) this.tokens.delete(token);
    while (this.tokens.size >= MAX_TOKENS) {
      const oldest = this.tokens.keys().next().value;
      if (oldest === undefined) break;
      this.tokens.delete(oldest);
    }
  }
}
