// The store's file port: every write the store makes to its journal and snapshot files goes
// through `StoreFiles.open`, so tests can make a write fail the way a full disk does (ENOSPC after
// part of the bytes landed) without filling a real disk. Files are created 0600: they hold TOTP
// secrets and hashes of API keys.
import { open } from 'node:fs/promises';

/** The part of a `FileHandle` the store uses. */
export interface StoreFile {
  appendFile(data: string): Promise<void>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export interface StoreFiles {
  /** `a` appends (the journal), `w` creates or empties (a temporary snapshot). */
  open(path: string, flags: 'a' | 'w'): Promise<StoreFile>;
}

export const FILE_MODE = 0o600;
export const DIRECTORY_MODE = 0o700;

export const nodeFiles: StoreFiles = {
  open: (path, flags) => open(path, flags, FILE_MODE),
};

/** Makes a rename or an unlink in `dir` durable (off the event loop: an fsync can take long). */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
