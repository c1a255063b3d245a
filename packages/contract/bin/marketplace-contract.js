#!/usr/bin/env node
// `marketplace-contract init|update <dir>`: the generated server stubs (ADR 0029). An installed package runs its build
// (dist/); inside the repository, where src/ exists (it is never packed), the TypeScript source runs.
import { existsSync } from 'node:fs';

const source = new URL('../src/stubs/cli.ts', import.meta.url);
await import(existsSync(source) ? source.href : new URL('../dist/stubs/cli.js', import.meta.url).href);
