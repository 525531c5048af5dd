import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Resumable parts: each part's result is written to `<work>/<name>.json` the moment it finishes, and
 * a later run with the same commit and sizes (the folder's name) reads it back instead of redoing it.
 */
export interface PartResult<T> {
  name: string;
  seconds: number;
  cached: boolean;
  result: T;
}

export class Parts {
  constructor(
    readonly folder: string,
    private readonly fresh: boolean,
  ) {
    mkdirSync(folder, { recursive: true });
  }

  file(name: string): string {
    return join(this.folder, `${name.replaceAll(':', '_')}.json`);
  }

  has(name: string): boolean {
    return !this.fresh && existsSync(this.file(name));
  }

  read<T>(name: string): PartResult<T> {
    const stored = JSON.parse(readFileSync(this.file(name), 'utf8')) as PartResult<T>;
    return { ...stored, cached: true };
  }

  save<T>(name: string, seconds: number, result: T): PartResult<T> {
    const part = { name, seconds, cached: false, result };
    mkdirSync(dirname(this.file(name)), { recursive: true });
    writeFileSync(this.file(name), JSON.stringify(part));
    return part;
  }

  async run<T>(name: string, work: () => T | Promise<T>): Promise<PartResult<T>> {
    if (this.has(name)) {
      console.log(`certify: ${name}: done before, reused`);
      return this.read<T>(name);
    }
    console.log(`certify: ${name}: running`);
    const started = performance.now();
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    console.log(`certify: ${name}: finished in ${seconds.toFixed(1)} s`);
    return this.save(name, seconds, result);
  }
}
