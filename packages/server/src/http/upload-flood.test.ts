// A flood of endless anonymous uploads costs the server little (issue 24, point 1): each is cut
// at its limit, so another user's GET /user/balance keeps its median latency (within 2x of the
// quiet one) and the server's memory stays under 300 MB. Before the cut, four such uploads raised
// that median from 1.5 ms to 19-32 ms and the server to 338 MB. The server runs in a child
// process (its RSS is its own) and the flood in a worker thread (its sockets do not delay the
// requests being timed); everything on loopback, on a free port, for a bounded time.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MAIN = resolve(import.meta.dirname, '..', 'main.ts');
/** Uploads in progress at once, each from its own address (forwarded by the trusted loopback). */
const UPLOADS = 8;
/** Requests timed in each phase. */
const SAMPLES = 150;
const RSS_LIMIT = 300 * 1024 * 1024;

let child: ChildProcess;
let base: string;

beforeAll(async () => {
  child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: 'silent',
      PORT: '0',
      MARKETPLACE_DB: ':memory:',
      MARKETPLACE_TEST_MODE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  base = await new Promise<string>((done, fail) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const url = output.match(/reference server: (\S+)/)?.[1];
      if (url) done(url);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => fail(new Error(`main.ts exited with ${code}:\n${output}`)));
  });
}, 60_000);
afterAll(() => {
  child?.kill('SIGKILL');
});

/** The child's resident memory in bytes, from /proc (Linux, where CI runs). */
const rssOf = (pid: number): number =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** Times `count` GET /user/balance one after another; returns their median in milliseconds. */
async function medianBalance(jwt: string, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/user/balance`, { headers: { authorization: `Bearer ${jwt}` } });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    expect(res.status).toBe(200);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

// The flood: UPLOADS loops, each an endless chunked login body, opened again once the server has
// ended the previous one. Reports how many uploads it started and how many bytes it handed over.
const FLOOD = `
const { connect } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { port, uploads } = workerData;
const chunk = Buffer.alloc(16 * 1024, 'k');
const frame = Buffer.concat([Buffer.from(chunk.length.toString(16) + '\\r\\n'), chunk, Buffer.from('\\r\\n')]);
let running = true, started = 0, answered = 0, sent = 0;
function upload(n) {
  if (!running) return;
  started++;
  let answer = '';
  const socket = connect(port, '127.0.0.1', () => {
    socket.write('POST /user/login HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/json\\r\\n' +
      'Transfer-Encoding: chunked\\r\\nX-Forwarded-For: 198.18.0.' + (n + 1) + '\\r\\n\\r\\n');
    const pump = () => { while (running && !socket.destroyed && socket.write(frame)) sent += frame.length; };
    socket.on('drain', pump);
    pump();
  });
  socket.on('data', (c) => { if (!answer) answered++; answer += c; });
  socket.on('error', () => {});
  socket.on('close', () => upload(n));
}
for (let n = 0; n < uploads; n++) upload(n);
parentPort.on('message', () => {
  running = false;
  parentPort.postMessage({ started, answered, sent });
});
`;

describe('a flood of endless anonymous uploads', () => {
  it("leaves another user's GET /user/balance median within 2x and the server under 300 MB", async () => {
    const user = await fetch(`${base}/test_helpers/users`, { method: 'POST', body: '{}', headers: json });
    const { apiKey } = (await user.json()).content;
    const login = await fetch(`${base}/user/login`, {
      method: 'POST',
      body: JSON.stringify({ apiKey }),
      headers: json,
    });
    const jwt: string = (await login.json()).content.jwt;
    await medianBalance(jwt, 20); // warm up
    const quietBefore = await medianBalance(jwt, SAMPLES);

    const rssBefore = rssOf(child.pid!);
    let rss = rssBefore;
    const sampler = setInterval(() => (rss = Math.max(rss, rssOf(child.pid!))), 50);
    const worker = new Worker(FLOOD, {
      eval: true,
      workerData: { port: Number(new URL(base).port), uploads: UPLOADS },
    });
    let flood: { started: number; answered: number; sent: number };
    let flooded: number;
    try {
      await new Promise((done) => setTimeout(done, 1000)); // every upload under way, some cut already
      flooded = await medianBalance(jwt, SAMPLES);
      await new Promise((done) => setTimeout(done, 1000));
    } finally {
      flood = await new Promise((done) => {
        worker.once('message', done);
        worker.postMessage('stop');
      });
      clearInterval(sampler);
      await worker.terminate();
    }
    const quietAfter = await medianBalance(jwt, SAMPLES);
    const quiet = Math.max(quietBefore, quietAfter);
    const report = {
      quietBefore,
      flooded,
      quietAfter,
      rssMb: rss / 2 ** 20,
      rssBeforeMb: rssBefore / 2 ** 20,
      ...flood,
    };

    // The flood was one: every loop's upload was cut and another started, megabytes were offered.
    expect(flood.answered, JSON.stringify(report)).toBeGreaterThanOrEqual(UPLOADS);
    expect(flood.sent, JSON.stringify(report)).toBeGreaterThan(UPLOADS * 64 * 1024);
    expect(flooded, JSON.stringify(report)).toBeLessThanOrEqual(2 * quiet);
    expect(rss, JSON.stringify(report)).toBeLessThan(RSS_LIMIT);
  }, 60_000);
});

const json = { 'content-type': 'application/json' };
