// `npm run pack [-- <dir>]`: every workspace packed into `<dir>` (default packed/), the tarballs a
// registry would serve. A team without such a registry starts from them:
// `npx --yes --package <dir>/marketplace-contract-<version>.tgz ... init <project> --packages <dir>`
// copies them into the project, which installs them from there (ADR 0029).
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const repo = resolve(import.meta.dirname, '..');

/**
 * Packs workspaces (`npm pack`, which runs each one's prepack: a clean build of dist/) into `dir`;
 * every workspace when none is named. Returns the tarballs' paths.
 */
export async function packWorkspaces(dir: string, workspaces: string[] = []): Promise<string[]> {
  const which = workspaces.length ? workspaces.flatMap((w) => ['--workspace', w]) : ['--workspaces'];
  mkdirSync(dir, { recursive: true });
  await promisify(execFile)('npm', ['pack', ...which, '--pack-destination', dir], {
    cwd: repo,
    maxBuffer: 64 * 1024 * 1024,
  });
  return readdirSync(dir)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(dir, f));
}

if (import.meta.main) {
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? 'packed');
  const files = await packWorkspaces(dir);
  console.log(files.map((f) => relative(process.env.INIT_CWD ?? process.cwd(), f)).join('\n'));
}
