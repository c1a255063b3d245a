#!/usr/bin/env node
// `marketplace-conformance`: the conformance suite. An installed package runs its build (dist/); inside the repository, where
// src/ exists (it is never packed), the TypeScript source runs, so a stale build is never used.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/cli.ts', import.meta.url);
await import(existsSync(source) ? source.href : new URL('../dist/src/cli/cli.js', import.meta.url).href);
