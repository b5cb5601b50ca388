// What `prunelab generate` does, loaded only when that command runs (its definition is ../generate.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeAtomic } from '../../engine/write.js';
import type { Command } from '../command.js';
import { renderCommandsDoc } from '../help.js';
import { GENERATED_PAGES, withGeneratedTables, type DocSources } from '../docs.js';
import { startProgress } from '../progress.js';
import type { CliIO } from '../io.js';
import { loadPreregistration, studyFiles } from '../../study/preregistration.js';
import { renderPreregistrationMarkdown } from '../../study/prose.js';
import { notices } from '../../messages.js';
import { STUDY } from '../study.js';
import type { CommandContext } from '../command.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DecisionRecord, Manifest, PointMeasures, PointRow, RunRecord, Summary } from '../../artifacts/schema.js';
import { Fixture, Oracle, SCHEMA_VERSION } from '../../fixture/schema.js';
import { loadFixtures } from '../../load/fixtures.js';
import { allConditions, builtInRegistry } from '../../policy/registry.js';
import {
  ARTIFACT_SCHEMA_PATH,
  CANONICAL_DIR,
  COMMANDS_DOC,
  type generateCommand,
  RESULTS_DIR,
  SCHEMA_PATH,
} from '../generate.js';

export const run = ({ io, commands }: CommandContext<typeof generateCommand.args>) => generate(io, commands);

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
