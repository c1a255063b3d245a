// The shell blocks of a README as the tests that run them read them (server-stubs.test.ts,
// readme-commands.test.ts): a block found by the heading above it, split into commands.
import { readFileSync } from 'node:fs';

/** A fenced shell block of a Markdown file: the heading it sits under, and its text. */
export interface ShellBlock {
  heading: string;
  text: string;
}

/** Every ```sh (or bash, shell) block of `markdown`, with the nearest heading above it. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let heading = '';
  let open: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line.startsWith('```')) {
        blocks.push({ heading, text: open.join('\n') });
        open = undefined;
      } else open.push(line);
    } else if (/^```(sh|bash|shell)$/.test(line)) open = [];
    else if (line.startsWith('```')) open = undefined;
    else if (/^#{1,6} /.test(line)) heading = line;
  }
  return blocks;
}

/** The first shell block under `heading` (the whole heading line, `## 3. Run the suite`) in `file`. */
export function readmeBlock(file: string, heading: string): string {
  const block = shellBlocks(readFileSync(file, 'utf8')).find((b) => b.heading === heading);
  if (!block) throw new Error(`${file} has no shell block under ${heading}`);
  return block.text;
}

/** A block's commands: continuation lines joined, blank lines and whole-line comments left out. */
export function commandsOf(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#'));
}
