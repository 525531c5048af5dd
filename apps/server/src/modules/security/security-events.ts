import { normalizeLanguage, type TLanguage, type TSecurityEventKind, translate } from '@sorte/contract';
import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { findSecurityMember, insertSecurityEvent } from './security.repo.ts';

export type TClientInfo = { ip: string | null; userAgent: string | null };

/** Events that are no change to the account: logged, but no notice is mailed. */
const SILENT: ReadonlySet<TSecurityEventKind> = new Set(['login', 'password_verified']);

/**
 * Writes a security event to the append-only log and, for changes, mails the player a notice (when
 * the account has a confirmed email), both in the caller's transaction.
 */
export async function recordSecurityEvent(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  kind: TSecurityEventKind,
  client: TClientInfo,
  detail?: Record<string, unknown>,
): Promise<void> {
  const at = await insertSecurityEvent(executor, {
    siteId: site.id,
    memberId,
    kind,
    ip: client.ip,
    userAgent: client.userAgent,
    ...(detail ? { detail } : {}),
  });
  if (SILENT.has(kind)) return;
  const member = await findSecurityMember(executor, site.id, memberId);
  if (!member?.email || !member.emailVerifiedAt) return;
  const lang: TLanguage = normalizeLanguage(member.lang) ?? 'en';
  await enqueueMail(executor, {
    siteId: site.id,
    memberId,
    to: member.email,
    subject: translate(lang, 'mail.notice_subject', { site: site.name }),
    text: translate(lang, 'mail.notice_body', {
      user: member.username,
      event: `event.${kind}`,
      at: at.toISOString(),
      time_zone: siteTimeZone(site),
      ip: client.ip ?? '—',
    }),
  });
}
