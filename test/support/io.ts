// A CLI io that keeps what a command prints, for tests that drive commands or progress in-process.
import type { CliIO } from '../../src/cli/io.js';

export interface Captured {
  readonly io: CliIO;
  out(): string;
  err(): string;
}

export function capture(
  o: {
    readonly cwd?: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
    /** Where progress goes; without it the command reports none, as for any in-process caller. */
    readonly progress?: CliIO['progress'];
  } = {},
): Captured {
  let out = '';
  let err = '';
  const io: CliIO = {
    cwd: o.cwd ?? process.cwd(),
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    ...(o.env ? { env: o.env } : {}),
    ...(o.progress ? { progress: o.progress } : {}),
  };
  return { io, out: () => out, err: () => err };
}
