#!/usr/bin/env node
// The outermost entry: the only code that reads process.argv, prints, and sets the exit code.
import { runCli } from './main.js';

process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  progress: { tty: process.stderr.isTTY === true, columns: process.stderr.columns ?? 80 },
});
