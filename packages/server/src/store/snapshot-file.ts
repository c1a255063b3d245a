// A lowdb adapter whose write is durable: compact JSON to a temporary file, fsync, atomic rename,
// fsync of the directory. lowdb's own JSONFile renames atomically but never fsyncs, so a power
// loss could leave an empty file behind the rename (see shared/TOOLCHAIN.md).
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

export class DurableJsonFile<T> implements Adapter<T> {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.#file, 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async write(data: T): Promise<void> {
    const tmp = join(dirname(this.#file), `.${basename(this.#file)}.${process.pid}.tmp`);
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(JSON.stringify(data));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.#file);
    const dir = openSync(dirname(this.#file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
}
