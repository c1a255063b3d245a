// `marketplace-conformance proxy`: a validating proxy to put between any client (a frontend's
// end-to-end tests, a mobile app, a load test) and any implementation. Every exchange is forwarded
// as is and then checked against the document with the suite's own check (`checkResponse`: status
// documented for the operation, envelope and schema, the 300 message listed for the operation, the
// rate-limit headers of a 429); a violation is printed at once with the curl line of the request.
// The check runs after the response has gone back to the client, so the client waits only for the
// forwarding. On close it writes the suite's reports from the traffic seen: results.json (one
// entry per operation, failed when any of its exchanges broke the document), coverage.md/.html
// (operations × statuses × messages seen), and junit.xml, report.html, badge.svg on request.
import { mkdirSync, writeFileSync } from 'node:fs';
import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { ReporterName } from '../kit/settings.ts';
import { checkResponse, errorMessage } from '../oracle/contract.ts';
import { findOperation, operations } from '../oracle/document.ts';
import { targetUrl } from '../oracle/target-url.ts';
import { writeBadge } from '../run/badge.ts';
import { coverage, type Seen, totals, writeCoverage } from '../run/coverage.ts';
import { htmlReport } from '../run/html-report.ts';
import { junitReport } from '../run/junit.ts';
import { implementedOperations, progressHeadline, progressOf } from '../run/progress.ts';
import { type Failure, type RunResult, type TestOutcome, withJwt, writeResults } from '../run/report.ts';

export interface ProxyOptions {
  /** The implementation's base URL. */
  target: string;
  /** 0 (default): a free port. */
  port?: number;
  host?: string;
  out?: string;
  reporters?: ReporterName[];
  /** Where violations are printed as they happen (default: standard output). */
  log?: (line: string) => void;
}

export interface Violation {
  operation: string;
  status: number;
  problems: string[];
  curl: string;
  response: string;
}

export interface ValidatingProxy {
  url: string;
  /** The violations seen so far. */
  violations: Violation[];
  /** Exchanges checked so far. */
  checked: () => number;
  /** Stops listening, waits for the exchanges in flight, writes the reports. */
  close: () => Promise<{ summary: string; violations: number; result: RunResult }>;
}

/** Headers that belong to one connection, not to the exchange. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer']);
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

function curlOf(method: string, url: string, headers: IncomingHttpHeaders, body: Buffer): string {
  const lines = Object.entries(headers)
    .filter(([k]) => !HOP.has(k) && !['host', 'content-length', 'accept-encoding'].includes(k))
    .map(([k, v]) => `-H ${quote(`${k}: ${Array.isArray(v) ? v.join(', ') : v}`)}`);
  const data = body.length ? [`--data ${quote(cut(body.toString('utf8'), 1000))}`] : [];
  return ['curl -i', `-X ${method}`, quote(url), ...lines, ...data].join(' ');
}

/** Starts the proxy; resolves once it listens. */
export async function startValidatingProxy(options: ProxyOptions): Promise<ValidatingProxy> {
  const base = new URL(options.target);
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  // Connections to the target are kept open between exchanges: no handshake per request.
  const agent = base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const out = resolve(options.out ?? 'conformance/reports');
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seen: Seen[] = [];
  const violations: Violation[] = [];
  const perOperation = new Map<string, { exchanges: number; violations: Violation[]; ms: number }>();
  const inFlight = new Set<Promise<void>>();
  let outside = 0;

  function check(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
    status: number,
    responseHeaders: Record<string, string>,
    responseBody: Buffer,
    ms: number,
  ): void {
    const pathname = path.split('?')[0] ?? path;
    const operation = findOperation(method, pathname);
    // Outside the document (the test helpers, a docs page, a favicon): counted, not checked.
    if (!operation) {
      outside += 1;
      return;
    }
    const op = operation.name;
    const url = targetUrl(base, path).toString();
    const contentType = responseHeaders['content-type'] ?? '';
    const text = responseBody.toString('utf8');
    let parsed: unknown = text;
    if (contentType.includes('json'))
      try {
        parsed = JSON.parse(text);
      } catch {}
    const problems = checkResponse({ method, url, status, headers: responseHeaders, body: parsed, contentType }, base);
    const message = status >= 300 ? errorMessage(parsed) : undefined;
    seen.push({
      op,
      status,
      message: typeof message === 'string' ? message : (message as { type?: string } | undefined)?.type,
    });
    const entry = perOperation.get(op) ?? { exchanges: 0, violations: [], ms: 0 };
    entry.exchanges += 1;
    entry.ms += ms;
    perOperation.set(op, entry);
    if (!problems.length) return;
    const violation: Violation = {
      operation: op,
      status,
      problems,
      curl: curlOf(method, url, headers, body),
      response: `${status} ${cut(text, 600)}`,
    };
    violations.push(violation);
    entry.violations.push(violation);
    log(
      `✗ ${op} → ${status}: ${problems.join('; ')}\n    request:  ${violation.curl}\n    response: ${violation.response}`,
    );
  }

  const server: Server = createServer((req, res) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k)));
      const upstream = send(
        targetUrl(base, req.url ?? '/'),
        { method: req.method, headers: { ...headers, host: base.host }, agent },
        (answer) => {
          const responseHeaders: Record<string, string> = {};
          for (const [k, v] of Object.entries(answer.headers))
            if (v !== undefined && !HOP.has(k)) responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
          res.writeHead(
            answer.statusCode ?? 502,
            answer.statusMessage,
            answer.headers['set-cookie']
              ? { ...responseHeaders, 'set-cookie': answer.headers['set-cookie'] }
              : responseHeaders,
          );
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => {
            parts.push(c);
            res.write(c);
          });
          answer.on('end', () => {
            res.end();
            const done = new Promise<void>((settle) =>
              setImmediate(() => {
                try {
                  check(
                    req.method ?? 'GET',
                    req.url ?? '/',
                    req.headers,
                    body,
                    answer.statusCode ?? 0,
                    responseHeaders,
                    Buffer.concat(parts),
                    performance.now() - started,
                  );
                } finally {
                  settle();
                }
              }),
            );
            inFlight.add(done);
            void done.then(() => inFlight.delete(done));
          });
        },
      );
      upstream.on('error', (e) => {
        log(`✗ ${req.method} ${req.url}: the target did not answer (${e.message})`);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`the validating proxy could not reach ${options.target}: ${e.message}\n`);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  async function close() {
    server.closeIdleConnections();
    await new Promise<void>((done) => server.close(() => done()));
    await Promise.all(inFlight);
    agent.destroy();
    mkdirSync(out, { recursive: true });
    const rows = coverage(seen);
    writeCoverage(out, rows, options.target);
    const outcomes: TestOutcome[] = [...perOperation].map(([op, entry]) => {
      const first = entry.violations[0];
      const { curl, jwt } = withJwt(first?.curl);
      const failure: Failure | undefined = first && {
        summary: cut(
          `${op}: ${first.problems.join('; ')} (${entry.violations.length} of ${entry.exchanges} exchanges)`,
          400,
        ),
        operation: op,
        rules: [],
        expected: 'an answer as documented',
        received: first.response.split('\n')[0]!.slice(0, 300),
        ...(curl ? { curl } : {}),
        ...(jwt ? { jwt } : {}),
        response: first.response,
        text: entry.violations.map((v) => `${v.status}: ${v.problems.join('; ')}\n  request:  ${v.curl}`).join('\n'),
      };
      return {
        name: `${op} answers as documented (${entry.exchanges} exchanges)`,
        file: 'traffic',
        area: 'traffic',
        operation: op,
        level: 'contract',
        state: failure ? 'failed' : 'passed',
        duration: Math.round(entry.ms),
        ...(failure ? { failure, reason: failure.text } : {}),
      };
    });
    const addressed = implementedOperations(seen).size;
    const result: RunResult = {
      target: options.target,
      level: 'traffic',
      readOnly: false,
      passed: outcomes.filter((o) => o.state === 'passed').length,
      failed: outcomes.filter((o) => o.state === 'failed'),
      known: [],
      skipped: [],
      outcomes,
      levels: {
        contract: { operations: addressed, of: operations.length, passed: 0, failed: 0, skipped: 0 },
        behavior: { operations: 0, of: operations.length, passed: 0, failed: 0, skipped: 0 },
      },
      coverage: totals(rows),
      progress: progressOf(seen, outcomes),
      out,
    };
    result.levels.contract.passed = result.passed;
    result.levels.contract.failed = result.failed.length;
    writeResults(out, result);
    const files = ['results.json', 'coverage.md', 'coverage.html'];
    if (options.reporters?.includes('junit')) {
      writeFileSync(join(out, 'junit.xml'), junitReport(result));
      files.push('junit.xml');
    }
    if (options.reporters?.includes('html')) {
      writeFileSync(join(out, 'report.html'), htmlReport(result));
      files.push('report.html');
    }
    if (options.reporters?.includes('badge')) {
      writeBadge(out, result);
      files.push('badge.svg', 'summary.json');
    }
    const c = result.coverage;
    const exchanges = [...perOperation.values()].reduce((n, e) => n + e.exchanges, 0);
    const summary = [
      `Traffic to ${options.target}: ${exchanges} exchanges checked, ${violations.length} violations, in ${result.failed.length} of ${outcomes.length} operations${outside ? `; ${outside} exchanges outside the document (test helpers, other paths) not checked` : ''}`,
      `  coverage: operations ${c.operations.hit}/${c.operations.all}, documented statuses ${c.statuses.hit}/${c.statuses.all}, documented messages ${c.messages.hit}/${c.messages.all}`,
      `  progress: ${progressHeadline(result.progress)}`,
      `Reports in ${out}: ${files.join(', ')}`,
    ].join('\n');
    return { summary, violations: violations.length, result };
  }

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    violations,
    checked: () => [...perOperation.values()].reduce((n, e) => n + e.exchanges, 0),
    close,
  };
}
