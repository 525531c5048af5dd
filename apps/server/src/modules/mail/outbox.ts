import type { Db, Executor } from '../../db/client.ts';
import type { MailConnection } from './mail.connection.ts';
import { claimDueMail, insertMail, markMailSent, markMailTryFailed } from './outbox.repo.ts';

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
  await insertMail(executor, {
    siteId: mail.siteId,
    memberId: mail.memberId ?? null,
    to: mail.to,
    subject: mail.subject.slice(0, 200),
    text: mail.text.slice(0, 10_000),
  });
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
      const due = await claimDueMail(this.db, BATCH);
      if (due.length === 0) return;
      for (const row of due) {
        try {
          await connection.transport.sendMail({
            from: connection.from,
            to: row.to_address,
            subject: row.subject,
            text: row.body_text,
          });
          await markMailSent(this.db, row.id);
        } catch (error) {
          const attempts = Number(row.attempts) + 1;
          await markMailTryFailed(this.db, row.id, {
            attempts,
            error: String(error).slice(0, 500),
            failed: attempts >= MAX_ATTEMPTS,
            retryInSeconds: Math.min(3600, 15 * 2 ** attempts),
          });
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
