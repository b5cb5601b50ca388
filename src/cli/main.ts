// The command dispatcher. It returns an exit code and writes through `io`; only bin.ts touches the process.
import { PrunelabError, usage } from '../errors.js';
import { notices } from '../messages.js';
import { checkValues, parseCommand } from './command.js';
import { COMMANDS } from './commands.js';
import { renderHelp, renderProgramHelp } from './help.js';
import type { CliIO } from './io.js';
import { packageInfo } from './package.js';

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const [name, ...rest] = argv;
    if (name === '--help' && rest.length === 0) {
      io.stdout(renderProgramHelp(COMMANDS, packageInfo().version));
      return 0;
    }
    if (name === '--version' && rest.length === 0) {
      io.stdout(`${packageInfo().version}\n`);
      return 0;
    }
    const command = COMMANDS.find((c) => c.meta.name === name);
    if (!command) throw usage('PL_USAGE_UNKNOWN_COMMAND', name ?? '(none)', COMMANDS.map((c) => c.meta.name).sort());
    const parsed = parseCommand(command, rest);
    if (parsed.help) {
      io.stdout(renderHelp(command));
      return 0;
    }
    checkValues(command, parsed);
    return await command.run({ args: parsed.args, positionals: parsed.positionals, io, commands: COMMANDS });
  } catch (err) {
    if (err instanceof PrunelabError) {
      io.stderr(notices.errorLine(err.message, err.code));
      return err.exitCode;
    }
    io.stderr(notices.unexpectedFailure((err as Error).stack ?? String(err)));
    return 1;
  }
}
