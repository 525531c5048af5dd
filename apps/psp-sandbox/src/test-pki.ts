import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throw-away PKI for tests of the strict (mTLS) sandbox, made with `openssl` at run time so no
 * private key is ever committed: a CA, the sandbox's server certificate (127.0.0.1 / localhost),
 * a client certificate signed by that CA, and a stranger's certificate from another CA.
 */
export interface TestPki {
  dir: string;
  ca: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string; certFile: string; keyFile: string };
  caFile: string;
  stranger: { cert: string; key: string; certFile: string; keyFile: string };
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

function issue(dir: string, name: string, subject: string, ca: string, extensions?: string): void {
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-subj',
      subject,
      '-out',
      `${name}.csr`,
    ],
    dir,
  );
  const sign = [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    `${name}.crt`,
  ];
  if (extensions) {
    writeFileSync(join(dir, `${name}.ext`), extensions);
    sign.push('-extfile', `${name}.ext`);
  }
  openssl(sign, dir);
}

function authority(dir: string, name: string): void {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
    ],
    dir,
  );
}

export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'sorte-pki-'));
  authority(dir, 'test-ca');
  authority(dir, 'other-ca');
  issue(
    dir,
    'server',
    '/CN=localhost',
    'test-ca',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  issue(dir, 'client', '/CN=sorte-test-client', 'test-ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'stranger', '/CN=stranger', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  return {
    dir,
    ca: read('test-ca.crt'),
    caFile: join(dir, 'test-ca.crt'),
    server: { cert: read('server.crt'), key: read('server.key') },
    client: {
      cert: read('client.crt'),
      key: read('client.key'),
      certFile: join(dir, 'client.crt'),
      keyFile: join(dir, 'client.key'),
    },
    stranger: {
      cert: read('stranger.crt'),
      key: read('stranger.key'),
      certFile: join(dir, 'stranger.crt'),
      keyFile: join(dir, 'stranger.key'),
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
