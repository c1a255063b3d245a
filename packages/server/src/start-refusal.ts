// A reason not to start (a damaged store, a secret too short to sign tokens): `main.ts` prints the
// message as one line and exits non-zero. The message never carries user data: it goes to logs.
export class StartRefusal extends Error {
  override name = 'StartRefusal';
}
