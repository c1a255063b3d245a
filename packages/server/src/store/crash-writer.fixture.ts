// Child process of the kill -9 tests: commits records as fast as it can (with snapshots every 50
// commits) and prints each record ID once its commit is acknowledged (durable), `failed <id>` for a
// commit refused. It continues after the records a killed predecessor left, so a test can crash it
// several times on one file. With a second argument, the disk is "full" while that file exists:
// every journal or snapshot write lands half its bytes, then fails with ENOSPC.
import { existsSync } from 'node:fs';
import { Tx } from '../domain/tx.ts';
import { fullDiskFiles } from './full-disk.fixture.ts';
import { openStore } from './store.ts';

const [file, fullFlag] = process.argv.slice(2);
const files = fullDiskFiles(() => fullFlag !== undefined && existsSync(fullFlag));

const store = await openStore(file!, { snapshotEvery: 50, files });
let id = Math.max(0, ...Object.keys(store.state.records).map(Number));
for (;;) {
  const batch = Array.from({ length: 5 }, () => {
    id += 1;
    const mine = id;
    const tx = new Tx(store.state);
    tx.put('records', mine, { id: String(mine), kind: 'crash', n: mine });
    return store.commit(tx).then(
      () => process.stdout.write(`${mine}\n`),
      () => process.stdout.write(`failed ${mine}\n`),
    );
  });
  await Promise.all(batch);
  if (store.refusal) throw new Error(store.refusal);
}
