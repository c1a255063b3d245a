import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

// A Stryker ignorer for `npm run mutation -- --spanning` (ADR 0037 addendum): line runs (`--sample`,
// `--rest-of`, `file:a-b`) take a mutant only when it lies wholly inside one range, so a mutant
// spanning lines (a function or block body emptied, a multi-line object literal or condition) falls
// between runs whose ranges split it. Ignoring every node that starts and ends on one line (and,
// as Stryker ignores a node's subtree with it, everything inside) leaves exactly the spanning mutants
// of a whole file; the line runs measured the others.
/** What the ignorer reads of Babel's path; Stryker's API types the path as an empty interface. */
type Located = { node: { loc?: { start: { line: number }; end: { line: number } } | null } };

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'single-line', {
    shouldIgnore(path) {
      const { loc } = (path as Located).node;
      return loc && loc.start.line === loc.end.line ? 'on one line: measured by the line runs' : undefined;
    },
  }),
];
