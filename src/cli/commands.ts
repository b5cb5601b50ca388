// Every command, in the order help and the docs list them. Adding a command is one definition file and one entry
// here; its help, usage errors and docs rows follow from the definition.
import { auditLeakageCommand } from './audit-leakage.js';
import type { Command } from './command.js';
import { controlsTrainCommand } from './controls-train.js';
import { ecologyCommand } from './ecology.js';
import { experimentCommand } from './experiment.js';
import { fixturesGenerateCommand } from './fixtures-generate.js';
import { fixturesVerifyCommand } from './fixtures-verify.js';
import { generateCommand } from './generate.js';
import { importCommand } from './import.js';
import { mergeCommand } from './merge.js';
import { publishCommand } from './publish.js';
import { reportCommand } from './report.js';
import { viewCommand } from './view.js';

export const COMMANDS: readonly Command[] = [
  experimentCommand,
  mergeCommand,
  reportCommand,
  viewCommand,
  publishCommand,
  generateCommand,
  fixturesGenerateCommand,
  fixturesVerifyCommand,
  importCommand,
  ecologyCommand,
  controlsTrainCommand,
  auditLeakageCommand,
];
