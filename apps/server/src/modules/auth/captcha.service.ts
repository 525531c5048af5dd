import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { TCaptchaResponse } from '@sorte/contract';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { sha256Hex } from '../sessions/tokens.ts';
import { captchas } from './auth.schema.ts';

export const CAPTCHA_TTL_SECONDS = 300;

/** Makes one challenge: the answer text and the SVG image that shows it. Injectable for tests. */
export type CaptchaGenerator = () => { text: string; svg: string };

export const defaultCaptchaGenerator: CaptchaGenerator = () => {
  const { text, data } = svgCaptcha.create({
    size: 4,
    ignoreChars: '0oO1iIlL',
    noise: 2,
    color: true,
    background: '#1b2130',
    width: 120,
    height: 44,
  });
  return { text, svg: data };
};

/** Answers are compared case-insensitively; the challenge id salts the hash. */
function answerHash(id: string, answer: string): string {
  return sha256Hex(`${id}:${answer.trim().toLowerCase()}`);
}

export class CaptchaService {
  constructor(
    private readonly executor: Executor,
    private readonly enabled: boolean,
    private readonly generate: CaptchaGenerator,
  ) {}

  get required(): boolean {
    return this.enabled;
  }

  async create(siteId: bigint): Promise<TCaptchaResponse> {
    if (!this.enabled) return { captcha_id: '', image: '', expires_in: 0, required: false };
    const { text, svg } = this.generate();
    const id = randomUUID();
    // Expired challenges are useless; drop them as new ones are made so the table stays small.
    await this.executor.delete(captchas).where(lt(captchas.expiresAt, sql`now() - interval '1 hour'`));
    await this.executor.insert(captchas).values({
      id,
      siteId,
      answerHash: answerHash(id, text),
      expiresAt: sql`now() + make_interval(secs => ${CAPTCHA_TTL_SECONDS})`,
    });
    return {
      captcha_id: id,
      image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      expires_in: CAPTCHA_TTL_SECONDS,
      required: true,
    };
  }

  /**
   * Consumes the challenge (whatever the answer: one guess per image) and throws CAPTCHA_INVALID
   * unless it existed on this site, was unused, unexpired and answered right. Missing fields are a
   * validation error on captcha_code. Does nothing when the captcha is turned off.
   */
  async verify(siteId: bigint, id: string | undefined, answer: string | undefined): Promise<void> {
    if (!this.enabled) return;
    if (!answer?.trim()) {
      throw new AppError('VALIDATION_FAILED', {
        messageKey: 'validation.required.captcha_code',
        fieldErrors: { captcha_code: 'validation.required.captcha_code' },
      });
    }
    if (!id || !/^[0-9a-f-]{36}$/.test(id)) throw new AppError('CAPTCHA_INVALID');
    const consumed = await this.executor
      .update(captchas)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(captchas.id, id),
          eq(captchas.siteId, siteId),
          isNull(captchas.usedAt),
          gt(captchas.expiresAt, sql`now()`),
        ),
      )
      .returning({ answerHash: captchas.answerHash });
    const stored = consumed[0]?.answerHash;
    const given = answerHash(id, answer);
    if (!stored || !timingSafeEqual(Buffer.from(stored), Buffer.from(given))) {
      throw new AppError('CAPTCHA_INVALID');
    }
  }
}
