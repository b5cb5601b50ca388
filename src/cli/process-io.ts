// The process's own io, for the outermost entries only (bin.ts, and scripts run as commands such as base-rate): the
// one place that ties a CliIO to process.stdout, process.stderr and the environment.
import type { CliIO } from './io.js';

export function processIO(): CliIO {
  return {
    cwd: process.cwd(),
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    progress: { tty: process.stderr.isTTY === true, columns: process.stderr.columns ?? 80 },
  };
}
