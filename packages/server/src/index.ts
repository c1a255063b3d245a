// The package's entry: composing and starting the reference server (server.ts), and the sandbox
// for other projects' tests (sandbox.ts, which starts a server: it is not exported from server.ts,
// so the two do not import each other).

export type { DemoAccount } from './demo-data.ts';
export {
  type PopulationAnswer,
  type PopulationRequest,
  type Sandbox,
  type SandboxOptions,
  type SandboxUser,
  startSandbox,
} from './sandbox.ts';
export * from './server.ts';
