// The command dispatcher. It returns an exit code and writes through `io`; only bin.ts touches the process.
import { PrunelabError, usage } from '../errors.js';
import { auditLeakageCommand } from './audit-leakage.js';
import { controlsTrain } from './controls-train.js';
import { experiment } from './experiment.js';
import type { CliIO } from './io.js';
import { ecology } from './ecology.js';
import { fixturesGenerate } from './fixtures-generate.js';
import { fixturesVerify } from './fixtures-verify.js';
import { generate } from './generate.js';
import { importCommand } from './import.js';
import { merge } from './merge.js';
import { publish } from './publish.js';
import { report } from './report.js';
import { notices } from '../messages.js';

const COMMANDS: Record<string, (argv: readonly string[], io: CliIO) => Promise<number>> = {
  'audit-leakage': auditLeakageCommand, 'controls-train': controlsTrain, ecology, experiment, 'fixtures-generate': fixturesGenerate, 'fixtures-verify': fixturesVerify, generate, import: importCommand, merge, publish, report,
};

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const [command, ...rest] = argv;
    const run = command === undefined ? undefined : COMMANDS[command];
    if (!run) throw usage('PL_USAGE_UNKNOWN_COMMAND', command ?? '(none)', Object.keys(COMMANDS).sort());
    return await run(rest, io);
  } catch (err) {
    if (err instanceof PrunelabError) {
      io.stderr(notices.errorLine(err.message, err.code));
      return err.exitCode;
    }
    io.stderr(notices.unexpectedFailure((err as Error).stack ?? String(err)));
    return 1;
  }
}
