// A file port for tests whose writes fail the way a full disk makes them fail: while `full()` says
// so, half of the bytes of a write land, then ENOSPC; `cutFails()` makes the truncation that
// follows fail too (the journal's end is then unknown).
import { nodeFiles, type StoreFiles } from './files.ts';

const failure = (code: string, text: string) => Object.assign(new Error(`${code}: ${text}`), { code });

export function fullDiskFiles(full: () => boolean, cutFails: () => boolean = () => false): StoreFiles {
  return {
    async open(path, flags) {
      const handle = await nodeFiles.open(path, flags);
      return {
        sync: () => handle.sync(),
        close: () => handle.close(),
        async truncate(length) {
          if (cutFails()) throw failure('EIO', 'i/o error, ftruncate');
          return handle.truncate(length);
        },
        async appendFile(data) {
          if (!full()) return handle.appendFile(data);
          await handle.appendFile(data.slice(0, Math.ceil(data.length / 2)));
          throw failure('ENOSPC', 'no space left on device, write');
        },
      };
    },
  };
}
