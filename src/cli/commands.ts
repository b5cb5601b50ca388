// Every command, in the order help and the docs list them. Adding a command is one definition file, one run module
// (./run/) and one entry here; its help, usage errors and docs rows follow from the definition. Each run module is
// imported only when its command runs, so a process running one command loads no other command's code.
import { auditLeakageCommand } from './audit-leakage.js';
import { type Command, lazyCommand } from './command.js';
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
  lazyCommand(experimentCommand, () => import('./run/experiment.js')),
  lazyCommand(mergeCommand, () => import('./run/merge.js')),
  lazyCommand(reportCommand, () => import('./run/report.js')),
  lazyCommand(viewCommand, () => import('./run/view.js')),
  lazyCommand(publishCommand, () => import('./run/publish.js')),
  lazyCommand(generateCommand, () => import('./run/generate.js')),
  lazyCommand(fixturesGenerateCommand, () => import('./run/fixtures-generate.js')),
  lazyCommand(fixturesVerifyCommand, () => import('./run/fixtures-verify.js')),
  lazyCommand(importCommand, () => import('./run/import.js')),
  lazyCommand(ecologyCommand, () => import('./run/ecology.js')),
  lazyCommand(controlsTrainCommand, () => import('./run/controls-train.js')),
  lazyCommand(auditLeakageCommand, () => import('./run/audit-leakage.js')),
];
