// Child process of the kill -9 test: commits records as fast as it can (with snapshots every 50
// commits) and prints each record ID once its commit is acknowledged (durable). It continues after
// the records a killed predecessor left, so the test can crash it several times on one file.
import { Tx } from '../domain/tx.ts';
import { openStore } from './store.ts';

const store = await openStore(process.argv[2]!, { snapshotEvery: 50 });
let id = Math.max(0, ...Object.keys(store.state.records).map(Number));
for (;;) {
  const batch = Array.from({ length: 5 }, () => {
    id += 1;
    const mine = id;
    const tx = new Tx(store.state);
    tx.put('records', mine, { id: String(mine), kind: 'crash', n: mine });
    return store.append(tx.commit()).then(() => process.stdout.write(`${mine}\n`));
  });
  await Promise.all(batch);
}
