import { describe, expect, it } from 'vitest';
import { strykerPlugins } from './mutation-spanning.ts';

const plugin = strykerPlugins[0]!;
const at = (start: number, end: number) => ({ node: { loc: { start: { line: start }, end: { line: end } } } });

describe('the --spanning ignorer', () => {
  it('Given a node on one line, then it is ignored; one over two lines or more, or without a location, is kept', () => {
    expect(plugin.name).toBe('single-line');
    expect(plugin.value.shouldIgnore(at(7, 7))).toMatch(/one line/);
    expect(plugin.value.shouldIgnore(at(7, 8))).toBeUndefined();
    expect(plugin.value.shouldIgnore(at(1, 40))).toBeUndefined();
    expect(plugin.value.shouldIgnore({ node: { loc: null } })).toBeUndefined();
  });
});
