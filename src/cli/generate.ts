import { describeCommand } from './command.js';

export const SCHEMA_PATH = 'fixtures/schema.json';
export const ARTIFACT_SCHEMA_PATH = 'results/schema.json';

export const CANONICAL_DIR = 'fixtures/canonical';
export const RESULTS_DIR = 'results';

export const COMMANDS_DOC = 'docs/commands.md';

export const generateCommand = describeCommand({
  meta: {
    name: 'generate',
    script: 'generate',
    description: `rewrite ${SCHEMA_PATH}, ${ARTIFACT_SCHEMA_PATH}, the preregistration's prose, ${COMMANDS_DOC} and the generated tables of the README and docs/`,
    about: `Rewrites what is generated from declarations: ${SCHEMA_PATH} and ${ARTIFACT_SCHEMA_PATH} from the zod schemas, the
preregistration's prose from its JSON, ${COMMANDS_DOC} from the command definitions, and the tables of conditions,
canonical fixtures and the study's figures in the README and docs/. Tests fail when any of them is out of date.`,
  },
  args: {},
});
