import { type AddressInfo, createServer } from 'node:net';

/**
 * A TCP port nobody listens on on loopback right now (the OS picks it): for the loopback sandboxes
 * of `npm run serve`'s workers, and for the servers tests and benchmarks start.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
