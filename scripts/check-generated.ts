// `npm run check:generated`: fails when a committed generated file (bundle, types or tool file) differs from
// what `npm run build` would write now, so a change to openapi/ cannot land without its artifacts.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ARTIFACTS, generate, toolArtifacts } from './generated.ts';

/** Returns the artifacts of `repoRoot` that are missing or stale. */
export async function staleArtifacts(repoRoot: string): Promise<string[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'generated-'));
  try {
    await generate(repoRoot, scratch);
    const fresh = [...ARTIFACTS, ...toolArtifacts(scratch)];
    const stale = fresh.filter((rel) => {
      const committed = join(repoRoot, rel);
      return !existsSync(committed) || readFileSync(committed, 'utf8') !== readFileSync(join(scratch, rel), 'utf8');
    });
    // A committed tool file the build no longer writes (an operation taken out) is stale too.
    return [...stale, ...toolArtifacts(repoRoot).filter((rel) => !fresh.includes(rel))];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const stale = await staleArtifacts(resolve(import.meta.dirname, '..'));
  if (stale.length > 0) {
    console.error(`Stale generated files (run \`npm run build\` and commit them):\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  console.log('Generated files are up to date.');
}
