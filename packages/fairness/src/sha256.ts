/**
 * SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104), written by hand.
 *
 * Why not Web Crypto: `crypto.subtle` is asynchronous only, so every outcome function would become
 * async and a million-round simulation would pay a promise per round; it is also missing outside
 * secure contexts (a page over plain http on a LAN address). Why not `node:crypto`: the
 * browser verifier must run the very same code. A small synchronous implementation is identical in
 * both places; its tests compare it with `node:crypto` on many inputs, so a mistake here cannot pass.
 *
 * Nothing here is secret-handling hardened (no constant-time guarantees): it hashes seeds that are
 * either already committed or about to be revealed, which is what provably-fair games need.
 */

/** Int32Array, not Uint32Array: V8 keeps int32 values unboxed, several times faster in this loop. */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL_STATE = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** The message schedule is reused across calls: hashing is synchronous, so no two calls overlap. */
const W = new Int32Array(64);
/** Padding scratch space, reused for the same reason. */
const TAIL = new Uint8Array(128);

/** Processes one 64-byte block at `offset` of `bytes` into `state`. */
function compress(state: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/**
 * Hashes `message` starting from `state`, which has already absorbed `prefixBlocks` blocks (HMAC's
 * padded key). Writes the 32-byte digest into `out`.
 */
function finish(state: Int32Array, prefixBlocks: number, message: Uint8Array, out: Uint8Array): void {
  const fullBlocks = message.length >>> 6;
  for (let i = 0; i < fullBlocks; i++) compress(state, message, i * 64);
  const rest = message.length - fullBlocks * 64;
  // Padding: 0x80, zeros, then the total length in bits as a 64-bit big-endian integer.
  const tailLength = rest < 56 ? 64 : 128;
  TAIL.fill(0);
  TAIL.set(message.subarray(fullBlocks * 64));
  TAIL[rest] = 0x80;
  const bitLength = (prefixBlocks * 64 + message.length) * 8;
  const high = Math.floor(bitLength / 0x100000000);
  for (let i = 0; i < 4; i++) {
    TAIL[tailLength - 8 + i] = high >>> (24 - 8 * i);
    TAIL[tailLength - 4 + i] = bitLength >>> (24 - 8 * i);
  }
  compress(state, TAIL, 0);
  if (tailLength === 128) compress(state, TAIL, 64);
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    out[i * 4] = word >>> 24;
    out[i * 4 + 1] = word >>> 16;
    out[i * 4 + 2] = word >>> 8;
    out[i * 4 + 3] = word;
  }
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. Seeds and hashes are hashed as their text, so anyone can re-check them by hand. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += bytes[i]!.toString(16).padStart(2, '0');
  return hex;
}

/** SHA-256 digest (32 bytes) of bytes or of a string's UTF-8 encoding. */
export function sha256(message: Uint8Array | string): Uint8Array {
  const bytes = typeof message === 'string' ? utf8(message) : message;
  const out = new Uint8Array(32);
  finish(new Int32Array(INITIAL_STATE), 0, bytes, out);
  return out;
}

export function sha256Hex(message: Uint8Array | string): string {
  return toHex(sha256(message));
}

/**
 * An HMAC-SHA256 key with its inner and outer pad already absorbed. Building it once per server seed
 * halves the work per digest, which is what makes million-round simulations fast.
 */
export class HmacSha256 {
  readonly #inner = new Int32Array(8);
  readonly #outer = new Int32Array(8);
  readonly #state = new Int32Array(8);
  readonly #innerDigest = new Uint8Array(32);

  constructor(key: Uint8Array | string) {
    let keyBytes = typeof key === 'string' ? utf8(key) : key;
    if (keyBytes.length > 64) keyBytes = sha256(keyBytes);
    const inner = new Uint8Array(64).fill(0x36);
    const outer = new Uint8Array(64).fill(0x5c);
    for (let i = 0; i < keyBytes.length; i++) {
      inner[i]! ^= keyBytes[i]!;
      outer[i]! ^= keyBytes[i]!;
    }
    this.#inner.set(INITIAL_STATE);
    compress(this.#inner, inner, 0);
    this.#outer.set(INITIAL_STATE);
    compress(this.#outer, outer, 0);
  }

  /** The 32-byte HMAC of `message`. Writes into `out` when given, to avoid an allocation per call. */
  digest(message: Uint8Array | string, out: Uint8Array = new Uint8Array(32)): Uint8Array {
    const bytes = typeof message === 'string' ? utf8(message) : message;
    this.#state.set(this.#inner);
    finish(this.#state, 1, bytes, this.#innerDigest);
    this.#state.set(this.#outer);
    finish(this.#state, 1, this.#innerDigest, out);
    return out;
  }
}

export function hmacSha256(key: Uint8Array | string, message: Uint8Array | string): Uint8Array {
  return new HmacSha256(key).digest(message);
}

export function hmacSha256Hex(key: Uint8Array | string, message: Uint8Array | string): string {
  return toHex(hmacSha256(key, message));
}
