/** Test helpers: a real WebSocket to a listening app's /ws, and an inbox of what it receives. */

export interface TestSocket {
  send(data: string): void;
  close(): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
}

/** The `ws` client @fastify/websocket is built on (loaded by name: the package ships no types). */
const WS_MODULE = 'ws';
type TSocketClass = new (
  url: string,
) => TestSocket & {
  once(event: 'open', listener: () => void): void;
  once(event: 'error', listener: (error: Error) => void): void;
};

export async function openSocket(url: string): Promise<TestSocket> {
  const { default: Socket } = (await import(WS_MODULE)) as { default: TSocketClass };
  return new Promise((resolve, reject) => {
    const socket = new Socket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

export function collect(socket: TestSocket) {
  const messages: Record<string, unknown>[] = [];
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(String(data))));
  const next = async (match: (m: Record<string, unknown>) => boolean, what: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} message; got ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { messages, next };
}
