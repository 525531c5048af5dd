import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';
import type { MailConnection } from './mail.connection.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail sender; connected by server.ts (or a test) once it has somewhere to send. */
    mail: MailOutbox;
  }
}

export type TMail = {
  siteId: bigint;
  memberId: bigint | null;
  to: string;
  subject: string;
  text: string;
};

/** Queues a message in the caller's transaction: it is sent only if that transaction commits. */
export async function enqueueMail(executor: Executor, mail: TMail): Promise<void> {
  await executor.execute(sql`
    INSERT INTO mail_outbox (site_id, member_id, to_address, subject, body_text)
    VALUES (${mail.siteId.toString()}::bigint, ${mail.memberId?.toString() ?? null}::bigint,
            ${mail.to}, ${mail.subject.slice(0, 200)}, ${mail.text.slice(0, 10_000)})`);
}

const BATCH = 20;
const MAX_ATTEMPTS = 8;

/**
 * Delivers the outbox. `kick()` after a commit sends at once; the mail-outbox job (mail.jobs.ts)
 * kicks it on a timer, which retries what failed (with a growing delay, then marks it failed). Rows are claimed with SKIP LOCKED, so several server
 * processes can send side by side without sending a message twice.
 */
export class MailOutbox {
  private connection: MailConnection | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly log: { error(obj: object, msg: string): void },
  ) {}

  attach(connection: MailConnection): void {
    this.connection = connection;
    this.kick();
  }

  get catcherUrl(): string | null {
    return this.connection?.catcherUrl ?? null;
  }

  /** Sends what is due now; resolves when this round is done (tests await it). */
  kick(): Promise<void> {
    if (!this.connection) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.flush()
      .catch((error: unknown) => this.log.error({ err: error }, 'mail outbox flush failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    return this.running;
  }

  private async flush(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    for (;;) {
      const due = await this.db.transaction(async (tx) => {
        const rows = await rowsOf<{
          id: string;
          to_address: string;
          subject: string;
          body_text: string;
          attempts: number;
        }>(
          tx,
          sql`SELECT id::text, to_address, subject, body_text, attempts FROM mail_outbox
              WHERE status = 'pending' AND next_try_at <= now()
              ORDER BY id LIMIT ${BATCH} FOR NO KEY UPDATE SKIP LOCKED`,
        );
        // Claim them for a minute so another process does not pick them while we send.
        if (rows.length > 0) {
          await tx.execute(sql`UPDATE mail_outbox SET next_try_at = now() + interval '1 minute'
                               WHERE id = ANY(${`{${rows.map((r) => r.id).join(',')}}`}::bigint[])`);
        }
        return rows;
      });
      if (due.length === 0) return;
      for (const row of due) {
        try {
          await connection.transport.sendMail({
            from: connection.from,
            to: row.to_address,
            subject: row.subject,
            text: row.body_text,
          });
          await this.db.execute(
            sql`UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1
                WHERE id = ${row.id}::bigint`,
          );
        } catch (error) {
          const attempts = Number(row.attempts) + 1;
          await this.db.execute(sql`
            UPDATE mail_outbox SET attempts = ${attempts}, last_error = ${String(error).slice(0, 500)},
              status = ${attempts >= MAX_ATTEMPTS ? 'failed' : 'pending'},
              next_try_at = now() + make_interval(secs => ${Math.min(3600, 15 * 2 ** attempts)})
            WHERE id = ${row.id}::bigint`);
        }
      }
      if (due.length < BATCH) return;
    }
  }

  async close(): Promise<void> {
    await this.running;
    const connection = this.connection;
    this.connection = null;
    await connection?.close();
  }
}
