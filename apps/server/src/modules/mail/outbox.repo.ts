import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';

/** The SQL of the mail outbox: queued messages, claimed in batches by the sender. */

export async function insertMail(
  executor: Executor,
  mail: { siteId: bigint; memberId: bigint | null; to: string; subject: string; text: string },
): Promise<void> {
  await executor.execute(sql`
    INSERT INTO mail_outbox (site_id, member_id, to_address, subject, body_text)
    VALUES (${mail.siteId.toString()}::bigint, ${mail.memberId?.toString() ?? null}::bigint,
            ${mail.to}, ${mail.subject}, ${mail.text})`);
}

export type TDueMail = {
  id: string;
  to_address: string;
  subject: string;
  body_text: string;
  attempts: number;
};

/**
 * Up to `batch` pending messages due now, claimed for a minute so another process does not pick
 * them while this one sends (rows another transaction holds are skipped).
 */
export async function claimDueMail(db: Db, batch: number): Promise<TDueMail[]> {
  return db.transaction(async (tx) => {
    const rows = await rowsOf<TDueMail>(
      tx,
      sql`SELECT id::text, to_address, subject, body_text, attempts FROM mail_outbox
              WHERE status = 'pending' AND next_try_at <= now()
              ORDER BY id LIMIT ${batch} FOR NO KEY UPDATE SKIP LOCKED`,
    );
    if (rows.length > 0) {
      await tx.execute(sql`UPDATE mail_outbox SET next_try_at = now() + interval '1 minute'
                               WHERE id = ANY(${`{${rows.map((r) => r.id).join(',')}}`}::bigint[])`);
    }
    return rows;
  });
}

export async function markMailSent(db: Db, id: string): Promise<void> {
  await db.execute(
    sql`UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1
                WHERE id = ${id}::bigint`,
  );
}

/** A failed try: counted, its error kept, retried after `retryInSeconds` or failed for good. */
export async function markMailTryFailed(
  db: Db,
  id: string,
  outcome: { attempts: number; error: string; failed: boolean; retryInSeconds: number },
): Promise<void> {
  await db.execute(sql`
            UPDATE mail_outbox SET attempts = ${outcome.attempts}, last_error = ${outcome.error},
              status = ${outcome.failed ? 'failed' : 'pending'},
              next_try_at = now() + make_interval(secs => ${outcome.retryInSeconds})
            WHERE id = ${id}::bigint`);
}
