// `marketplace-contract init <dir>` and `marketplace-contract update <dir>` (`npx @marketplace/contract ...`):
// a backend team's project of typed handler stubs, generated from the document (ADR 0029).
import { parseArgs } from 'node:util';
import { describeRun, initProject, updateProject } from './project.ts';

const USAGE = `Usage: marketplace-contract init <dir> [--document <openapi.json>] [--packages <tarball-dir>]
       marketplace-contract update <dir> [--document <openapi.json>] [--packages <tarball-dir>]

init    writes a TypeScript project (Express 5, Node 24) behind the document's gate, one file of typed
        handler stubs per tag; every stub answers as an unknown route (not implemented)
update  adds stubs for new operations, rewrites the generated files nobody edited, and lists the
        handlers whose operation changed or is gone (tsc points at them too)
--document  the bundled document to use (default: the installed @marketplace/openapi's)
--packages  a folder of the @marketplace/* tarballs (\`npm run pack\` in the toolkit's repository):
            copied into <dir>/vendor/, which the project installs them from (file: dependencies),
            without a registry; a project whose vendor/ holds them keeps them on update`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { document: { type: 'string' }, packages: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
const [command, dir] = positionals;
if (values.help) {
  console.log(USAGE);
} else if (!dir || positionals.length !== 2 || (command !== 'init' && command !== 'update')) {
  console.error(USAGE);
  process.exitCode = 2;
} else {
  try {
    const result = (command === 'init' ? initProject : updateProject)(dir, {
      document: values.document,
      packages: values.packages,
    });
    console.log(describeRun(result));
    if (command === 'init')
      console.log(`Next: cd ${dir} && npm install && npm run typecheck && npm run start:test-mode (README.md)`);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
  }
}
