import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allMeanings,
  documentedFields,
  EVENTS,
  missingMeanings,
  notYetPinned,
  OPEN_MEANINGS,
  pinnedIn,
} from './meanings.ts';

const testsDir = resolve(import.meta.dirname, '../../tests');
/** The meanings each test file of the suite pins, by file. */
const pinned = new Map(
  readdirSync(testsDir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => [f, pinnedIn(readFileSync(join(testsDir, f), 'utf8'))]),
);

describe('documentedFields', () => {
  it('reads every field of the success answers from the document, under the payload, envelope aside', () => {
    const fields = documentedFields();
    expect(fields).toContain('GET /user/getCashoutHistory totalCashedOut');
    expect(fields).toContain('GET /user/getCashoutHistory cashouts[].amount');
    expect(fields).toContain('GET /support/list list[].last_message');
    expect(fields).toContain('GET /instantsell/{game} informations.rows[].buyOrderCount');
    // The weekly and the daily rows of the sales graph are both documented (oneOf).
    expect(fields).toContain('GET /item/salesGraph/{item} values[].week');
    expect(fields).toContain('GET /item/salesGraph/{item} values[].nb');
    // The envelope's own keys are checked on every answer: they are no field of the matrix.
    for (const envelope of ['err', 'success', 'content']) expect(fields).not.toContain(`POST /user/login ${envelope}`);
    for (const envelope of ['status', 'data']) expect(fields).not.toContain(`GET /support/list ${envelope}`);
    // A payload's own `status` is a field.
    expect(fields).toContain('GET /deposit/tradeStatus/{tradeid} status');
  });
});

describe('missingMeanings', () => {
  const all = ['GET /a total', 'GET /a rows[].n', 'event email: x'];

  it('names every field and event no passing test pins: failed and skipped tests pin nothing', () => {
    expect(missingMeanings([], all)).toEqual(all);
    expect(
      missingMeanings(
        [
          { state: 'passed', meanings: ['GET /a total'] },
          { state: 'failed', meanings: ['GET /a rows[].n'] },
          { state: 'skipped', meanings: ['event email: x'] },
        ],
        all,
      ),
    ).toEqual(['GET /a rows[].n', 'event email: x']);
    expect(missingMeanings([{ state: 'passed', meanings: all }], all)).toEqual([]);
  });

  it('is not empty against the whole document with nothing pinned, and leaves out the meanings the document leaves open', () => {
    const missing = missingMeanings([]);
    expect(missing.length).toBeGreaterThan(EVENTS.length);
    expect(missing).toContain('event moderation: POST /admin/ban unbans (time 0)');
    for (const open of Object.keys(OPEN_MEANINGS)) expect(missing).not.toContain(open);
  });

  it('reads the pins of a test source, one or several per call', () => {
    expect(pinnedIn("pinsMeaning('GET /a total');\n pinsMeaning(\n 'GET /b x',\n 'event email: y',\n);")).toEqual([
      'GET /a total',
      'GET /b x',
      'event email: y',
    ]);
  });
});

describe('the meaning matrix of the suite', () => {
  const known = new Set(allMeanings());

  it('pins only fields and events the document has (no misspelt key)', () => {
    const unknown = [...pinned.entries()].flatMap(([file, keys]) =>
      keys.filter((k) => !known.has(k) && !k.includes('${')).map((k) => `${file}: ${k}`),
    );
    expect(unknown).toEqual([]);
  });

  it('lists as not yet pinned only fields and events of the document, none open, none a test pins', () => {
    const tests = new Set([...pinned.values()].flat());
    const pending = notYetPinned();
    expect([...pending].filter((k) => !known.has(k))).toEqual([]);
    expect([...pending].filter((k) => k in OPEN_MEANINGS)).toEqual([]);
    expect([...pending].filter((k) => tests.has(k))).toEqual([]);
  });

  it('says where each open meaning is left open, on a field of the document', () => {
    for (const [key, why] of Object.entries(OPEN_MEANINGS)) {
      expect(known.has(key), key).toBe(true);
      expect(why.length).toBeGreaterThan(20);
    }
  });
});
