// `marketplace-server`: the reference server as a command of the installed package (bin/ runs
// this file): options become environment variables, then main.ts starts the server as `npm start`.
import { environmentOf, USAGE } from './cli-options.ts';

const asked = environmentOf(process.argv.slice(2));
if ('help' in asked) {
  console.log(USAGE);
  process.exit(0);
}
if ('error' in asked) {
  console.error(`marketplace-server: ${asked.error}\n\n${USAGE}`);
  process.exit(2);
}
Object.assign(process.env, asked.env);
try {
  await import('./main.ts');
} catch (error) {
  // A refused configuration (PORT=abc, a damaged store): one line per problem, not a stack trace.
  const lines = (error as Error).message.split('\n');
  console.error(lines.map((line) => `marketplace-server: ${line}`).join('\n'));
  process.exit(1);
}
