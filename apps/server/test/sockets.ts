/** Test helpers: a real WebSocket to a listening app (as a browser opens it) and an inbox of what it receives. */

export interface TestSocket {
  send(data: string): void;
  close(): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  once(event: 'close', listener: (code: number) => void): void;
}

/** The `ws` client @fastify/websocket is built on (loaded by name: the package ships no types). */
const WS_MODULE = 'ws';
type TSocketClass = new (
  url: string,
) => TestSocket & {
  once(event: 'open', listener: () => void): void;
  once(event: 'error', listener: (error: Error) => void): void;
};

async function socketClass(): Promise<TSocketClass> {
  return ((await import(WS_MODULE)) as { default: TSocketClass }).default;
}

function opened(socket: ReturnType<typeof construct>): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
}
function construct(Socket: TSocketClass, url: string) {
  return new Socket(url);
}

export async function openSocket(url: string): Promise<TestSocket> {
  const socket = construct(await socketClass(), url);
  await opened(socket);
  return socket;
}

/** Collects every JSON message (raw text and parsed) and waits for one that matches. */
export function collect(socket: TestSocket) {
  const raw: string[] = [];
  const messages: Record<string, unknown>[] = [];
  socket.on('message', (data: Buffer) => {
    raw.push(String(data));
    messages.push(JSON.parse(String(data)));
  });
  const next = async (match: (m: Record<string, unknown>) => boolean, what: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what} message; got ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { raw, messages, next };
}

/** Opens a socket with its inbox attached at once (the first message can arrive with the upgrade). */
export async function openWithInbox(url: string) {
  const socket = construct(await socketClass(), url);
  const inbox = collect(socket);
  await opened(socket);
  return { socket: socket as TestSocket, inbox };
}
