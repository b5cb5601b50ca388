// Drives the CLI as a user would, in-process, capturing what it prints.
import { runCli } from '../../src/cli/main.js';

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
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd,
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    ...(env ? { env } : {}),
  });
  return { code, stdout, stderr };
}
