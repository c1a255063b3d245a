// The `marketplace-server` command: its options as environment variables, and the bin as a user
// runs it (help, refused options, a refused configuration).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { environmentOf, USAGE } from './cli-options.ts';

const BIN = resolve(import.meta.dirname, '../bin/marketplace-server.js');
const run = promisify(execFile);

/** Runs the bin and answers its exit code and output (a non-zero exit is an answer, not a throw). */
async function bin(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the options of marketplace-server', () => {
  it('become the environment variables npm start reads', () => {
    expect(environmentOf(['--port', '9090', '--db', ':memory:', '--test-mode', '--demo'])).toEqual({
      env: { PORT: '9090', MARKETPLACE_DB: ':memory:', MARKETPLACE_TEST_MODE: '1', MARKETPLACE_DEMO: '1' },
    });
    expect(environmentOf(['--port=1234'])).toEqual({ env: { PORT: '1234' } });
    expect(environmentOf([])).toEqual({ env: {} });
  });

  it('refuse an unknown option or an argument in one sentence', () => {
    expect(environmentOf(['--prot', '80'])).toEqual({ error: "Unknown option '--prot'" });
    expect(environmentOf(['serve'])).toEqual({ error: "Unexpected argument 'serve'" });
    expect(environmentOf(['--port'])).toEqual({ error: "Option '--port <value>' argument missing" });
  });
});

describe('the marketplace-server bin', () => {
  it('prints its usage with --help and exits 0', async () => {
    const { code, stdout } = await bin(['--help']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(USAGE);
  });

  it('refuses an unknown option with one line, the usage and exit code 2', async () => {
    const { code, stderr, stdout } = await bin(['--verbose']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')[0]).toBe("marketplace-server: Unknown option '--verbose'");
    expect(stderr).toContain(USAGE);
  });

  it('refuses a bad configuration in one line per bad variable and exits 1', async () => {
    const { code, stderr } = await bin(['--port', 'eighty', '--db', ':memory:'], { LOG_LEVEL: 'loud' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'marketplace-server: PORT: "eighty" is not a port number (0-65535)',
      'marketplace-server: LOG_LEVEL: "loud" is not a log level (fatal, error, warn, info, debug, trace, silent)',
    ]);
  });
});
