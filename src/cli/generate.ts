// `prunelab generate`: rewrites what is generated from declarations: fixtures/schema.json and results/schema.json
// from the zod schemas, the preregistration's prose from its JSON, docs/commands.md from the command definitions,
// and the tables of the documentation's pages (src/cli/docs.ts says which table is in which page): conditions
// (from the registry), canonical fixtures (from their files) and the study's measures (from the committed
// results/). Tests fail when any is out of date.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DecisionRecord, Manifest, PointMeasures, PointRow, RunRecord, Summary } from '../artifacts/schema.js';
import { z } from 'zod';
import { writeAtomic } from '../engine/write.js';
import { loadFixtures } from '../load/fixtures.js';
import { Fixture, Oracle, SCHEMA_VERSION } from '../fixture/schema.js';
import { allConditions, builtInRegistry } from '../policy/registry.js';
import { defineCommand, type Command } from './command.js';
import { renderCommandsDoc } from './help.js';
import { GENERATED_PAGES, withGeneratedTables, type DocSources } from './docs.js';
import { startProgress } from './progress.js';
import type { CliIO } from './io.js';
import { loadPreregistration, studyFiles } from '../study/preregistration.js';
import { renderPreregistrationMarkdown } from '../study/prose.js';
import { notices } from '../messages.js';
import { STUDY } from './study.js';

export const SCHEMA_PATH = 'fixtures/schema.json';
export const ARTIFACT_SCHEMA_PATH = 'results/schema.json';

/** The JSON Schema of every file a run writes, for tools that read results/ without this code. */
export function artifactJsonSchema(): string {
  const out = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12' });
  const doc = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title:
      'prunelab run artifacts: decisions.jsonl lines, points.jsonl lines, points.csv rows, summary.json, manifest.json, run.json',
    description: 'Generated from src/artifacts/schema.ts by `npm run generate`; do not edit by hand.',
    $defs: {
      DecisionRecord: out(DecisionRecord),
      PointMeasures: out(PointMeasures),
      PointRow: out(PointRow),
      Summary: out(Summary),
      Manifest: out(Manifest),
      RunRecord: out(RunRecord),
    },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function fixtureJsonSchema(): string {
  const doc = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `prunelab fixture and oracle files, schema version ${SCHEMA_VERSION}`,
    description: 'Generated from src/fixture/schema.ts by `npm run generate`; do not edit by hand.',
    $defs: {
      Fixture: z.toJSONSchema(Fixture, { io: 'input', target: 'draft-2020-12' }),
      Oracle: z.toJSONSchema(Oracle, { io: 'input', target: 'draft-2020-12' }),
    },
    anyOf: [{ $ref: '#/$defs/Fixture' }, { $ref: '#/$defs/Oracle' }],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export const CANONICAL_DIR = 'fixtures/canonical';
export const RESULTS_DIR = 'results';

/** The summaries of the committed study, in the registry's order. */
function committedSummaries(dir: string): Summary[] {
  const names = allConditions()
    .map((c) => c.name)
    .filter((n) => existsSync(join(dir, n, 'summary.json')));
  return names.map((n) => Summary.parse(JSON.parse(readFileSync(join(dir, n, 'summary.json'), 'utf8'))));
}

/** What the generated tables are drawn from: the registry, the canonical fixtures and the committed results/. */
export function docSources(root: string): DocSources {
  return {
    registered: builtInRegistry().registered,
    canonical: loadFixtures(resolve(root, CANONICAL_DIR), root),
    summaries: committedSummaries(resolve(root, RESULTS_DIR)),
  };
}

export const COMMANDS_DOC = 'docs/commands.md';

export const generateCommand = defineCommand({
  meta: {
    name: 'generate',
    script: 'generate',
    description: `rewrite ${SCHEMA_PATH}, ${ARTIFACT_SCHEMA_PATH}, the preregistration's prose, ${COMMANDS_DOC} and the generated tables of the README and docs/`,
    about: `Rewrites what is generated from declarations: ${SCHEMA_PATH} and ${ARTIFACT_SCHEMA_PATH} from the zod schemas, the
preregistration's prose from its JSON, ${COMMANDS_DOC} from the command definitions, and the tables of conditions,
canonical fixtures and the study's figures in the README and docs/. Tests fail when any of them is out of date.`,
  },
  args: {},
  run: ({ io, commands }) => generate(io, commands),
});

async function generate(io: CliIO, commands: readonly Command[]): Promise<number> {
  const files = studyFiles(STUDY.name);
  // What each file is rewritten from, computed as its turn comes: the doc sources load fixtures and results, the
  // slow part, so they are read once, before the first page that needs them.
  let sources: DocSources | undefined;
  const writes: readonly (readonly [string, () => string])[] = [
    [SCHEMA_PATH, fixtureJsonSchema],
    [ARTIFACT_SCHEMA_PATH, artifactJsonSchema],
    [
      files.prose,
      () => renderPreregistrationMarkdown(loadPreregistration(io.cwd, files.preregistration).preregistration),
    ],
    [COMMANDS_DOC, () => renderCommandsDoc(commands)],
    ...GENERATED_PAGES.map(
      (page) =>
        [
          page,
          () => {
            sources ??= docSources(io.cwd);
            return withGeneratedTables(page, readFileSync(resolve(io.cwd, page), 'utf8'), sources);
          },
        ] as const,
    ),
  ];
  const progress = startProgress(io, {
    label: 'generate',
    unit: 'files',
    total: writes.length,
    conditions: 0,
    quiet: false,
  });
  writes.forEach(([path, text], i) => {
    writeAtomic(resolve(io.cwd, path), text());
    progress.update(i + 1);
  });
  progress.stop();
  io.stdout(
    notices.generatedWritten(
      [SCHEMA_PATH, ARTIFACT_SCHEMA_PATH, files.prose, COMMANDS_DOC],
      GENERATED_PAGES.join(', '),
    ),
  );
  return 0;
}
