#!/usr/bin/env node
// `marketplace-server`: the reference server. An installed package runs its build (dist/); inside the repository, where
// src/ exists (it is never packed), the TypeScript source runs, so a stale build is never used.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli.ts', import.meta.url);
await import(existsSync(source) ? source.href : new URL('../dist/cli.js', import.meta.url).href);
