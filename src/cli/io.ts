// What a command may touch of the outside world; the entry point passes the real one, tests pass their own.
export interface CliIO {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Environment variables (API keys, base URLs); bin.ts passes the process's, tests their own. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}
