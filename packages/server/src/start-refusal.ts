// A reason not to start (bad environment variables, a damaged store, a secret too short to sign
// tokens): `main.ts` prints the message, one line per problem, and exits non-zero. The message never carries user data: it goes to logs.
export class StartRefusal extends Error {
  override name = 'StartRefusal';
}

/**
 * Makes a `StartRefusal` thrown while starting end the process with its message (one line per problem) and exit
 * code 1, instead of a stack trace; any other error keeps Node's own report.
 */
export function refuseStartInOneLine(): void {
  const handler = (error: unknown) => {
    if (!(error instanceof StartRefusal)) {
      process.removeListener('uncaughtException', handler);
      throw error;
    }
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', handler);
}
