import { ID_ONLY } from '../policy/controls/id-only.js';
import { POSITION_ONLY } from '../policy/controls/position-only.js';
import { controlTableFile } from '../policy/controls/tables.js';
import { MAX_COUNT } from './fixtures-generate.js';
import { describeCommand } from './command.js';

export const TRAIN_DEFAULTS = { count: 400 } as const;
export const FLAGS = {
  seed: { type: 'string', valueHint: 'N', required: true, description: "the training corpus's seed" },
  count: {
    type: 'string',
    valueHint: 'N',
    default: String(TRAIN_DEFAULTS.count),
    description: `how many fixtures, 1 to ${MAX_COUNT}`,
  },
} as const;

export const controlsTrainCommand = describeCommand({
  meta: {
    name: 'controls-train',
    script: 'controls:train',
    description: "refit the id-only and position-only controls' tables on a training corpus of another seed",
    about: `Generates a training corpus (the current generator, seed N, which must differ from the study corpus's) in a
temporary folder and fits the id-only and position-only controls' tables on it: ${controlTableFile(ID_ONLY)} and
${controlTableFile(POSITION_ONLY)}.`,
  },
  args: FLAGS,
});
