// `prunelab schema`: writes the JSON Schema generated from the zod declarations, so editors can validate fixtures.
import { resolve } from 'node:path';
import { z } from 'zod';
import { writeAtomic } from '../engine/write.js';
import { Fixture, Oracle, SCHEMA_VERSION } from '../fixture/schema.js';
import { parseFlags } from './args.js';
import type { CliIO } from './io.js';

export const SCHEMA_PATH = 'fixtures/schema.json';

export function fixtureJsonSchema(): string {
  const doc = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `prunelab fixture and oracle files, schema version ${SCHEMA_VERSION}`,
    description: 'Generated from src/fixture/schema.ts by `npm run schema`; do not edit by hand.',
    $defs: {
      Fixture: z.toJSONSchema(Fixture, { io: 'input', target: 'draft-2020-12' }),
      Oracle: z.toJSONSchema(Oracle, { io: 'input', target: 'draft-2020-12' }),
    },
    anyOf: [{ $ref: '#/$defs/Fixture' }, { $ref: '#/$defs/Oracle' }],
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export async function schema(argv: readonly string[], io: CliIO): Promise<number> {
  const flags = parseFlags(argv, { out: { type: 'string' } });
  const path = resolve(io.cwd, flags.out ?? SCHEMA_PATH);
  writeAtomic(path, fixtureJsonSchema());
  io.stdout(`wrote ${flags.out ?? SCHEMA_PATH}\n`);
  return 0;
}
