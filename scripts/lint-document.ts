// `npm run lint:document`: Redocly lint of both documents and of the Arazzo workflows
// (openapi/workflows/*.arazzo.yaml), where a warning fails like an error
// (the issue's bar: "no errors and no warnings"). Pass a regular expression to lint only the
// paths it matches, while other areas of the document are still being written.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { conventionProblems } from './document-conventions.ts';

const root = resolve(import.meta.dirname, '..');

/** A copy of the root document keeping only the paths whose URL matches `pattern`. */
function subset(pattern: RegExp): string {
  const text = readFileSync(resolve(root, 'openapi/openapi.yaml'), 'utf8');
  const [head, rest = ''] = text.split('\npaths:\n');
  const [block = '', tail] = rest.split('\ncomponents:\n');
  const lines = block.split('\n');
  const kept: string[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const file = lines[i + 1]!.trim().replace('$ref: ', '');
    // Paths whose file is not written yet are left out, so one area can be checked on its own.
    if (pattern.test(lines[i]!.trim().replace(/:$/, '')) && existsSync(resolve(root, 'openapi', file)))
      kept.push(lines[i]!, lines[i + 1]!);
  }
  const file = resolve(root, `openapi/.subset-${process.pid}.yaml`);
  writeFileSync(file, `${head}\npaths:\n${kept.join('\n')}\ncomponents:\n${tail}`);
  return file;
}

const pattern = process.argv[2];
const workflows = readdirSync(resolve(root, 'openapi/workflows'))
  .filter((name) => name.endsWith('.arazzo.yaml'))
  .map((name) => `openapi/workflows/${name}`);
const targets = pattern ? [subset(new RegExp(pattern))] : ['marketplace', 'test-helpers', ...workflows];
const scratch = pattern ? targets[0]! : undefined;
let problems = 0;
try {
  for (const target of targets) {
    let out: string;
    try {
      out = execFileSync(
        resolve(root, 'node_modules/.bin/redocly'),
        ['lint', target, '--format', 'stylish', '--max-problems', '1000'],
        {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
        },
      );
    } catch (error) {
      out = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
      problems += 1;
    }
    const found = out.split('\n').filter((line) => /\b(error|warning)\b/.test(line) && !/^\s*$/.test(line));
    problems += found.length;
    for (const line of found) console.error(line);
    console.log(`${target}: ${found.length === 0 ? 'no errors, no warnings' : `${found.length} problems`}`);
  }
} finally {
  if (scratch) rmSync(scratch, { force: true });
}
// Conventions Redocly cannot check (scripts/document-conventions.ts).
const conventions = conventionProblems(resolve(root, 'openapi'));
for (const line of conventions) console.error(line);
console.log(`conventions: ${conventions.length === 0 ? 'no problems' : `${conventions.length} problems`}`);
problems += conventions.length;
if (problems > 0) process.exit(1);
