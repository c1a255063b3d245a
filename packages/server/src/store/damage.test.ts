// A damaged store refuses to start (ADR 0010): one line naming the file, the line and why, no
// user data in it, every file left byte for byte as it was, and (through main.ts) exit code 1.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Tx } from '../domain/tx.ts';
import { StoreDamaged } from './damage.ts';
import { journalLine } from './journal.ts';
import { openStore, type Store } from './store.ts';

/** Every test here waits for fsyncs and child processes: generous on a busy machine. */
const SLOW = { timeout: 90_000 };

const PRIVATE = 'private-9f3a@example.com';
let dir: string;
let file: string;
let journal: string;
let opened: Store[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'damage-'));
  file = join(dir, 'db.json');
  journal = `${file}.journal`;
  opened = [];
}, SLOW.timeout);
afterEach(async () => {
  for (const store of opened) await store.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}, SLOW.timeout);

/** A store holding 30 acknowledged records carrying user data; closed (all in the snapshot) or not. */
async function thirtyRecords({ close }: { close: boolean }): Promise<void> {
  const store = await openStore(file);
  opened.push(store);
  for (let n = 1; n <= 30; n += 1) {
    const tx = new Tx(store.state);
    tx.put('records', n, { id: String(n), kind: 'ticket', email: PRIVATE, n });
    await store.commit(tx);
  }
  if (close) {
    await store.close();
    opened = [];
  }
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n');
const files = () => Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));

/** Opens the store expecting a refusal; checks the message and that no file changed. */
async function refused(path: string, line: number, why: RegExp): Promise<StoreDamaged> {
  const before = files();
  const error = await openStore(file).then(
    (store) => {
      opened.push(store);
      throw new Error('the damaged store was opened');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreDamaged);
  const damage = error as StoreDamaged;
  expect({ file: damage.file, line: damage.line }).toEqual({ file: path, line });
  expect(damage.reason).toMatch(why);
  expect(damage.message).toContain(`${path} is damaged at line ${line}: `);
  expect(damage.message).not.toContain('\n');
  expect(damage.message).not.toContain(PRIVATE);
  expect(files()).toEqual(before);
  return damage;
}

describe('a damaged journal', SLOW, () => {
  it('refuses garbage in the middle of the journal', async () => {
    await thirtyRecords({ close: false });
    const text = lines(journal);
    text[9] = 'garbage';
    writeFileSync(journal, text.join('\n'));
    await refused(journal, 10, /not valid JSON/);
  });

  it('refuses a flipped byte that still parses (the line checksum)', async () => {
    await thirtyRecords({ close: false });
    const text = lines(journal);
    text[14] = text[14]!.replace(PRIVATE, PRIVATE.replace('9', '8'));
    writeFileSync(journal, text.join('\n'));
    await refused(journal, 15, /checksum does not match/);
  });

  it('refuses a flipped byte in the first line of a journal', async () => {
    await thirtyRecords({ close: false });
    writeFileSync(journal, readFileSync(journal, 'utf8').replace('{"sum"', '{"sun"'));
    await refused(journal, 1, /unknown field/);
  });

  it('refuses a seq that does not follow the previous line', async () => {
    await thirtyRecords({ close: false });
    const text = lines(journal);
    const line = JSON.parse(text[4]!);
    text[4] = journalLine(7, line.changes).trimEnd(); // a whole, well-summed line with the wrong seq
    writeFileSync(journal, text.join('\n'));
    await refused(journal, 5, /seq 7 follows seq 4/);
  });

  it('refuses a journal whose first line does not follow the snapshot (lines missing)', async () => {
    await thirtyRecords({ close: false });
    writeFileSync(journal, lines(journal).slice(3).join('\n'));
    await refused(journal, 1, /seq 4 where 1 was expected/);
  });

  it('refuses a seq that is not a number', async () => {
    await thirtyRecords({ close: false });
    const text = lines(journal);
    text[2] = '{"seq":"three","changes":[]}';
    writeFileSync(journal, text.join('\n'));
    await refused(journal, 3, /checksum/); // a line without its sum in a summed journal
  });

  it('refuses a record of the wrong shape, naming the field but not the value', async () => {
    await thirtyRecords({ close: false });
    const text = lines(journal);
    text.splice(30, 0, journalLine(31, [{ c: 'ledger', id: '1', row: { id: 1, user: PRIVATE, amount: 'lots' } }]));
    writeFileSync(journal, text.join('\n'));
    const damage = await refused(journal, 31, /a ledger record/);
    expect(damage.reason).not.toContain('lots');
  });

  it('refuses a change to an unknown collection', async () => {
    await thirtyRecords({ close: false });
    writeFileSync(
      journal,
      readFileSync(journal, 'utf8') + journalLine(31, [{ c: 'wallets' as 'users', id: '1', row: {} }]),
    );
    await refused(journal, 31, /unknown collection/);
  });

  it('skips only a torn last line', async () => {
    await thirtyRecords({ close: false });
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"sum":"0000`);
    const store = await openStore(file);
    opened.push(store);
    expect(Object.keys(store.state.records)).toHaveLength(30);
  });
});

describe('a damaged snapshot', SLOW, () => {
  it.each([
    ['null', 'null', /null, not a state object/],
    ['{}', '{}', /seq is missing/],
    ['a list', '[]', /a list, not a state object/],
    ['empty', '', /empty/],
  ])('refuses a snapshot holding %s', async (_, content, why) => {
    await thirtyRecords({ close: true });
    writeFileSync(file, content);
    await refused(file, 1, why);
  });

  it('refuses a truncated snapshot', async () => {
    await thirtyRecords({ close: true });
    const text = lines(file);
    writeFileSync(file, `${text.slice(0, 20).join('\n')}\n`);
    await refused(file, 20, /truncated/);
  });

  it('refuses a snapshot cut in the middle of a line', async () => {
    await thirtyRecords({ close: true });
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf(PRIVATE);
    writeFileSync(file, text.slice(0, at));
    const damage = await refused(file, lines(file).length, /not valid JSON/);
    expect(damage.line).toBeGreaterThan(1);
  });

  it('refuses a record of the wrong shape in a snapshot', async () => {
    await thirtyRecords({ close: true });
    const text = lines(file);
    const at = text.findIndex((l) => l.includes('"7":'));
    text[at] = text[at]!.replace('"kind":"ticket"', '"kind":7');
    writeFileSync(file, text.join('\n'));
    await refused(file, at + 1, /a records record \/kind must be string/);
  });

  it('refuses a flipped byte in a snapshot that still parses (the file checksum)', async () => {
    await thirtyRecords({ close: true });
    writeFileSync(file, readFileSync(file, 'utf8').replace('"n":17', '"n":19'));
    await refused(file, lines(file).length - 2, /checksum of the lines before does not match/);
  });

  it('refuses a snapshot without its checksum line', async () => {
    await thirtyRecords({ close: true });
    const text = lines(file);
    writeFileSync(file, text.filter((l) => !l.startsWith(',"sum"')).join('\n'));
    await refused(file, text.length - 2, /no checksum line/);
  });

  it('refuses a snapshot written by an earlier version that holds null', async () => {
    await thirtyRecords({ close: true });
    writeFileSync(file, JSON.stringify({ seq: 30, counters: {}, feesCollected: 0, users: null }));
    await refused(file, 1, /collection users is not an object/);
  });
});

describe('starting the server on a damaged store', SLOW, () => {
  it('prints one line naming the file and the line, and exits non-zero', async () => {
    await thirtyRecords({ close: false });
    const text = lines(journal);
    text[9] = 'garbage';
    writeFileSync(journal, text.join('\n'));
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'main.ts')], {
      env: { ...process.env, MARKETPLACE_DB: file, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.trimEnd().split('\n')).toEqual([expect.stringMatching(/db\.json\.journal is damaged at line 10: /)]);
    expect(err).not.toContain(PRIVATE);
  });
});
