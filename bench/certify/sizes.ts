import { parseArgs } from 'node:util';

/**
 * The run's sizes. `--quick` is the smoke (seconds to minutes; its figures are not certification
 * figures); the defaults are the sizes the issue and the standards ask for. Every size is a flag so a
 * long run is one command: `npm run certify -- --rounds 100000000 --threads 8`.
 */
export interface Sizes {
  /** Rounds played per game mode (χ², runs, serial correlation and RTP share the same rounds). */
  rounds: number;
  /** Bytes of raw stream written for dieharder and ent. */
  streamBytes: number;
  nistSequences: number;
  /** Bits per NIST sequence: a power of two (the package's DFT needs one), 2²⁰ ≥ the standard's 10⁶. */
  nistBits: number;
  /** dieharder: `all` (-a) or test numbers. */
  dieharder: 'all' | number[];
  /** Enumerate the slot's 20⁵ stops (≈ 35 s on one core). */
  enumerateSlot: boolean;
}

export const FULL: Sizes = {
  rounds: 100_000_000,
  streamBytes: 1 << 30,
  nistSequences: 100,
  nistBits: 1 << 20,
  dieharder: 'all',
  enumerateSlot: true,
};

export const QUICK: Sizes = {
  rounds: 20_000,
  streamBytes: 8 << 20,
  nistSequences: 10,
  nistBits: 1 << 17,
  dieharder: [0, 15, 100, 204],
  enumerateSlot: true,
};

export interface Options {
  sizes: Sizes;
  threads: number;
  out: string;
  work: string;
  fresh: boolean;
  quick: boolean;
}

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      'stream-mib': { type: 'string' },
      'nist-sequences': { type: 'string' },
      'nist-bits': { type: 'string' },
      dieharder: { type: 'string' },
      threads: { type: 'string' },
      out: { type: 'string', default: 'docs/certification' },
      work: { type: 'string', default: 'data/certify' },
    },
  });
  const base = values.quick ? QUICK : FULL;
  const int = (text: string | undefined, fallback: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`Not a size: ${text}`);
    return n;
  };
  const nistBits = int(values['nist-bits'], base.nistBits);
  if ((nistBits & (nistBits - 1)) !== 0) throw new Error('--nist-bits must be a power of two.');
  const sizes: Sizes = {
    rounds: int(values.rounds, base.rounds),
    streamBytes: values['stream-mib'] ? int(values['stream-mib'], 0) << 20 : base.streamBytes,
    nistSequences: int(values['nist-sequences'], base.nistSequences),
    nistBits,
    dieharder:
      values.dieharder === undefined
        ? base.dieharder
        : values.dieharder === 'all'
          ? 'all'
          : values.dieharder.split(',').map((d) => int(d, 0)),
    enumerateSlot: base.enumerateSlot,
  };
  return {
    sizes,
    threads: int(values.threads, 2),
    out: values.out,
    work: values.work,
    fresh: values.fresh,
    quick: values.quick,
  };
}
