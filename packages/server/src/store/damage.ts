// What the store says when a file it loads is damaged (ADR 0010): the file, the line and why, in
// one line and without the line's content (it holds user data), and nothing is rewritten.
import { StartRefusal } from '../start-refusal.ts';

export class StoreDamaged extends StartRefusal {
  override name = 'StoreDamaged';
  readonly file: string;
  readonly line: number;
  readonly reason: string;

  constructor(file: string, line: number, reason: string) {
    super(
      `Refusing to start: the store file ${file} is damaged at line ${line}: ${reason}. Every file was left as it was; restore it from a backup or repair that line.`,
    );
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

/** Why JSON.parse refused a text, without the excerpt of the text V8 puts in its message. */
export function jsonProblem(error: unknown): string {
  const at = /position (\d+)/.exec(String((error as Error)?.message ?? ''));
  return at ? `not valid JSON (at character ${Number(at[1]) + 1})` : 'not valid JSON';
}
