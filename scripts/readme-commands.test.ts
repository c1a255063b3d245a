// Every shell block of the READMEs (the root's, the suite's, the packages', and the one a generated
// stub project gets) is accounted for: run as written by a named test (which must name the block's
// heading), done by a test in an equivalent form (said how), or not run by any test yet (a defect,
// listed so that it stays visible: issue 36). A block added to a README without an entry here, or an
// entry whose block is gone, fails: a command a README shows is either tested or listed as not.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repo } from './packed-project.ts';
import { commandsOf, shellBlocks } from './readme-blocks.ts';

const READMES = [
  'README.md',
  'conformance/README.md',
  'packages/client/README.md',
  'packages/contract/README.md',
  'packages/mock/README.md',
  'packages/server/README.md',
  'packages/types/README.md',
  'openapi/README.md',
  'packages/contract/stub-template/README.md',
];

type Account =
  /** Run as written (addresses and ports aside) by this test, which names the block's heading. */
  | { run: string }
  /** Done by this test in another form: how. */
  | { equivalent: string; how: string }
  /** No test runs it yet: what is missing. */
  | { notRun: string };

/** By README, heading and the block's first command. */
const BLOCKS: Record<string, Account> = {
  'README.md › ## Quick start › npm ci && npm start': {
    equivalent: 'scripts/readme-quick-start.test.ts',
    how: 'the server it starts is started in the test (startTestServer with demo data) on a free port',
  },
  'README.md › ## Quick start › BASE=http://127.0.0.1:8080': { run: 'scripts/readme-quick-start.test.ts' },
  'README.md › ## Quick start › curl -s -X POST $BASE/item/buyorder -H "Authorization: Bearer $JWT" -H \'Content-Type: application/json\' -d \'{"itemid": 3, "value": 90, "amount": 2}\'':
    { run: 'scripts/readme-quick-start.test.ts' },
  'README.md › ## Quick start › curl -s "$BASE/public/price?game=730&format=csv"': {
    run: 'scripts/readme-quick-start.test.ts',
  },
  'README.md › ## Quick start › PORT=4010 npm run mock': {
    equivalent: 'scripts/readme-quick-start.test.ts',
    how: 'the mock is started in the test (startMock) on a free port',
  },
  'README.md › ## Quick start › MOCK=http://127.0.0.1:4010': { run: 'scripts/readme-quick-start.test.ts' },
  'README.md › ## Quick start › npm ci && npm test': {
    equivalent: '.ci/run',
    how: 'what CI runs on a clean clone: npm test cannot run itself',
  },
  'README.md › ### Frontend: the client against the mock › npm install @marketplace/client': {
    equivalent: 'scripts/pack-install.test.ts',
    how: 'the packages are installed from their packed tarballs (no registry holds them), then marketplace-mock and marketplace-server are started from the install',
  },
  'README.md › ### Backend: the conformance suite in CI › npx marketplace-conformance --target http://127.0.0.1:8080 --out conformance-reports --reporter html   # first run':
    { run: 'scripts/readme-installed.test.ts' },
  'README.md › ### Backend: start from generated server stubs › npx --yes @marketplace/contract@1 init market-api && cd market-api   # 1. generate':
    {
      equivalent: 'scripts/server-stubs.test.ts',
      how: 'the registry path needs the packages published; its twin under "Without a registry" and the project README steps it names run there',
    },
  "README.md › #### Without a registry › npm run pack                                  # in the clone: every package's tarball into packed/":
    { run: 'scripts/server-stubs.test.ts' },
  "README.md › ### The API in your HTTP client and your editor's assistant › npm install --save-dev @marketplace/openapi @marketplace/server newman@6 @usebruno/cli@4":
    {
      equivalent: 'scripts/pack-collections.test.ts',
      how: "the packed tarballs are installed in place of the registry's @marketplace packages, with the same newman and Bruno CLI; the server is started with these arguments on a free port",
    },
  "README.md › ### The API in your HTTP client and your editor's assistant › ADMIN_KEY=the-key-it-printed": {
    run: 'scripts/pack-collections.test.ts',
  },
  'README.md › ### Many sandboxes on one server › npx marketplace-server --sandboxes --db :memory: --port 8080 &': {
    run: 'scripts/readme-installed.test.ts',
  },
  'README.md › ### Slow and failing on purpose › npx redocly respect openapi/workflows/*.arazzo.yaml --server marketplace=http://127.0.0.1:8080,testHelpers=http://127.0.0.1:8080':
    {
      equivalent: 'openapi/workflows/workflows.test.ts',
      how: 'redocly respect runs the workflows against a reference server on a free port',
    },
  'README.md › ## Several instances on one PostgreSQL › npm run -s postgres': {
    run: 'scripts/readme-postgres.test.ts',
  },
  'README.md › ## Several instances on one PostgreSQL › export MARKETPLACE_DB=postgres://postgres@127.0.0.1:5432/marketplace   # the URL printed above':
    { run: 'scripts/readme-postgres.test.ts' },
  'README.md › ## Several instances on one PostgreSQL › PORT=8082 npm start -w @marketplace/server': {
    run: 'scripts/readme-postgres.test.ts',
  },
  'README.md › ## Several instances on one PostgreSQL › A=http://127.0.0.1:8081 B=http://127.0.0.1:8082': {
    run: 'scripts/readme-postgres.test.ts',
  },
  'conformance/README.md › # Conformance suite › npx marketplace-conformance --target http://127.0.0.1:8080 --blocked-country KP':
    { run: 'scripts/readme-installed.test.ts' },
  'conformance/README.md › ### Live traffic: `marketplace-conformance proxy` › npx marketplace-conformance proxy --target http://127.0.0.1:8080 --port 8090 --reporter html':
    { run: 'scripts/readme-installed.test.ts' },
  'conformance/README.md › ### Seeded exploration: `marketplace-conformance explore` › npx marketplace-conformance explore --target http://127.0.0.1:8080 --time 10      # 10 s (60 s by default), a random seed (printed)':
    { run: 'scripts/readme-installed.test.ts' },
  "conformance/README.md › ## A team's adoption path › BASE=http://127.0.0.1:8080": {
    run: 'scripts/readme-installed.test.ts',
  },
  'packages/contract/README.md › ## Server stubs for a backend team › npx @marketplace/contract init market-api     # a TypeScript project of typed handler stubs behind the gate':
    {
      equivalent: 'scripts/server-stubs.test.ts',
      how: "the registry path needs the packages published: init runs with npx of the packed tarballs, update as the project's stubs:update",
    },
  'packages/mock/README.md › # @marketplace/mock › npm install --save-dev @marketplace/mock': {
    equivalent: 'scripts/pack-install.test.ts',
    how: 'installed from its tarball, marketplace-mock started on PORT',
  },
  "packages/mock/README.md › # @marketplace/mock › curl -H 'Prefer: delay=1500' http://127.0.0.1:4010/item/listing/count/1   # waits 1.5 s, then the example":
    { run: 'scripts/readme-installed.test.ts' },
  'packages/server/README.md › # @marketplace/server › npm install @marketplace/server': {
    equivalent: 'scripts/pack-install.test.ts',
    how: 'installed from its tarball, marketplace-server started with --port, --db :memory:, --test-mode and --demo',
  },
  'packages/contract/stub-template/README.md › ## 1. Generate (done) and install › npm install': {
    run: 'scripts/server-stubs.test.ts',
  },
  'packages/contract/stub-template/README.md › ## 3. Run the suite › npm run start:test-mode &        # PORT=3000 by default; MARKETPLACE_TEST_MODE=1 mounts the test helpers':
    {
      equivalent: 'scripts/server-stubs.test.ts',
      how: 'npm run start:test-mode started in the background on a free PORT, then npm run conformance with MARKETPLACE_URL',
    },
  'packages/contract/stub-template/README.md › ## 4. Baseline › npx marketplace-conformance baseline write --from conformance-reports/results.json --out conformance-baseline.json --expires 2027-03-31':
    { run: 'scripts/server-stubs.test.ts' },
  'packages/contract/stub-template/README.md › ## 5. Release gate › npx marketplace-conformance --target http://127.0.0.1:3000 --require-all --out conformance-reports':
    { run: 'scripts/server-stubs.test.ts' },
  'packages/contract/stub-template/README.md › ## When the document changes › npm run stubs:update             # marketplace-contract update .':
    {
      equivalent: 'scripts/server-stubs.test.ts',
      how: 'npm run stubs:update with --document (a changed document), then npm run typecheck',
    },
};

/** Every shell block of the READMEs, by the key of BLOCKS. */
function blocksOfReadmes(): string[] {
  return READMES.filter((file) => existsSync(join(repo, file))).flatMap((file) =>
    shellBlocks(readFileSync(join(repo, file), 'utf8')).map(
      (block) => `${file} › ${block.heading} › ${commandsOf(block.text)[0] ?? ''}`,
    ),
  );
}

describe("the READMEs' shell blocks", () => {
  it('are each accounted for: run by a test, done in an equivalent form, or listed as not run', () => {
    const found = blocksOfReadmes();
    expect(found.filter((key) => !(key in BLOCKS))).toEqual([]);
    expect(Object.keys(BLOCKS).filter((key) => !found.includes(key))).toEqual([]);
  });

  it('name tests that exist, and a test that runs a block as written names its heading', () => {
    for (const [key, account] of Object.entries(BLOCKS)) {
      const test = 'run' in account ? account.run : 'equivalent' in account ? account.equivalent : undefined;
      if (!test) continue;
      expect([key, existsSync(join(repo, test))]).toEqual([key, true]);
      if ('run' in account) {
        const heading = key.split(' › ')[1]!;
        expect([key, readFileSync(join(repo, test), 'utf8').includes(heading)]).toEqual([key, true]);
      }
    }
  });
});
