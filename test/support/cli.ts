// Drives the CLI as a user would, in-process, capturing what it prints.
import { runCli } from '../../src/cli/main.js';
import { capture } from './io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(
  args: readonly string[],
  cwd = process.cwd(),
  env?: Readonly<Record<string, string | undefined>>,
): Promise<CliResult> {
  const c = capture({ cwd, ...(env ? { env } : {}) });
  const code = await runCli(args, c.io);
  return { code, stdout: c.out(), stderr: c.err() };
}
