import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { RunningServer } from './server.ts';

interface CaughtMessage {
  id: number;
  to: string[];
  subject: string;
  text: string;
}

/**
 * The local mail catcher the server started on loopback (MAIL_CATCHER_PORT=0 picks a free port):
 * its address is in the start-up lines the server prints ("mail catcher at http://127.0.0.1:NNNN/").
 */
export async function mailCatcherUrl(server: RunningServer): Promise<string> {
  let url = '';
  await expect
    .poll(
      () => {
        const match = /mail catcher at (http:\/\/[^\s/]+)\//.exec(readFileSync(server.logFile, 'utf8'));
        url = match?.[1] ?? '';
        return url;
      },
      { timeout: 30_000, message: 'the server prints where its mail catcher listens' },
    )
    .not.toBe('');
  return url;
}

/** The newest 6-digit code the catcher holds for this address, once a message that matches arrives. */
export async function codeMailedTo(
  catcherUrl: string,
  to: string,
  skip: Set<number> = new Set(),
): Promise<{ code: string; message: CaughtMessage }> {
  let found: CaughtMessage | undefined;
  await expect
    .poll(
      async () => {
        const answer = await fetch(`${catcherUrl}/api/messages?to=${encodeURIComponent(to)}`);
        const { messages } = (await answer.json()) as { messages: CaughtMessage[] };
        found = messages.find((message) => !skip.has(message.id) && /\b\d{6}\b/.test(message.text));
        return Boolean(found);
      },
      { timeout: 30_000, message: `a message with a code reaches ${to}` },
    )
    .toBe(true);
  return { code: /\b(\d{6})\b/.exec(found!.text)![1]!, message: found! };
}
