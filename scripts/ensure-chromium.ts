// `npm test` opens the docs page in Debian's Chromium (playwright-core cannot download browsers
// here). This runs first (`pretest`) so the README's test command works on a fresh Debian machine:
// when no Chromium is found it installs the `chromium` package with apt-get (as root, or through
// sudo), and otherwise stops with the one command that fixes it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium to drive: CHROMIUM_PATH, else Debian's. Undefined when none is installed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

/** The Chromium path, or an error that says how to install it. */
export function chromiumPath(): string {
  const found = findChromium();
  if (!found) throw new Error('Chromium not found: run `node scripts/ensure-chromium.ts` (apt-get install chromium)');
  return found;
}

function install(): void {
  const asRoot = process.getuid?.() === 0;
  const run = (args: string[]) =>
    execFileSync(asRoot ? args[0]! : 'sudo', asRoot ? args.slice(1) : ['-n', ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium']);
}

if (import.meta.main) {
  if (findChromium()) process.exit(0);
  console.log('Chromium not found: installing Debian package `chromium` for the docs browser test...');
  try {
    install();
  } catch {
    console.error('Could not install Chromium. Install it with `sudo apt-get install chromium`, or set CHROMIUM_PATH.');
    process.exit(1);
  }
  if (!findChromium()) {
    console.error('apt-get finished but no Chromium was found; set CHROMIUM_PATH.');
    process.exit(1);
  }
}
