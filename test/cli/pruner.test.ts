// `experiment --pruner FILE --format F`: a framework's pruner, brought as it is, runs sandboxed beside the built-ins
// and its output is mapped back to decisions; a bad module or format exits 2 naming the file and field, and a
// summarising pruner fails the run with the transformation refusal.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/artifacts/schema.js';
import { prunerName } from '../../src/cli/pruner-module.js';
import { cli } from '../support/cli.js';
import { experimentOnFixture, moduleFile } from '../support/module-file.js';

const prunerFile = (body: string, name = 'drop-tool-results.mjs'): string => moduleFile(body, name);

// An OpenAI-format pruner as a framework would write it: drop every tool message and the calls they answer.
const dropToolTraffic = `export default async function (messages, { budgetTokens }) {
  if (typeof budgetTokens !== 'number') throw new Error('no budget');
  return messages.filter((m) => m.role !== 'tool' && !m.tool_calls);
}
`;

/** `experiment` over a one-fixture folder with `pruner` in openai-chat format, into a fresh --out. */
const runOn = (pruner: string, ...extra: string[]) =>
  experimentOnFixture(['--pruner', pruner, '--format', 'openai-chat', ...extra]);

const summarise = `export default (messages) => [messages[0], { role: 'user', content: 'Summary: ' + messages.map((m) => m.content ?? '').join(' ') }];
`;

describe('--pruner with an OpenAI-format function', () => {
  it('runs it end to end: exit 0, its removals mapped back and written as decisions', async () => {
    const r = await runOn(prunerFile(dropToolTraffic), '--condition', 'raw', '--json');
    const out = r.out;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summaries = JSON.parse(r.stdout) as Summary[];
    expect(summaries.map((s) => s.condition)).toEqual(['raw', 'drop-tool-results']);
    const records = readFileSync(join(out, 'drop-tool-results', 'decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { itemId: string; decision: string; provenance: { kind: string } });
    expect(records.length).toBeGreaterThan(0);
    for (const rec of records) {
      const tool = rec.provenance.kind === 'tool-call' || rec.provenance.kind === 'tool-result';
      expect(rec.decision).toBe(tool ? 'PRUNE' : 'KEEP');
    }
    expect(records.some((rec) => rec.decision === 'PRUNE')).toBe(true);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      conditions: { name: string; layer: string }[];
    };
    expect(manifest.conditions.find((c) => c.name === 'drop-tool-results')).toMatchObject({
      layer: 'comparator',
    });
    expect(existsSync(join(out, 'EXPLORATORY.md'))).toBe(true);
  });

  it('refuses a summarising pruner: exit 1, transformation, not pruning, naming fixture, point and message', async () => {
    const r = await runOn(prunerFile(summarise, 'summary.mjs'));
    const out = r.out;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('PL_PRUNER_TRANSFORMATION');
    expect(r.stderr).toMatch(/pruner summary on \S+ at pp1: message 1 of its output/);
    expect(r.stderr).toContain('transformation');
    expect(existsSync(join(out, 'summary'))).toBe(false);
  });

  it('exits 2 on a bad module or format, naming the file and the field', async () => {
    const notFunction = await cli([
      'experiment',
      '--out',
      '/tmp/x',
      '--pruner',
      prunerFile('export default { prune: () => [] };', 'obj.mjs'),
      '--format',
      'openai-chat',
    ]);
    expect(notFunction.code).toBe(2);
    expect(notFunction.stderr).toMatch(/obj\.mjs: the pruner module's default export: must be a function/);
    const missing = await cli(['experiment', '--out', '/tmp/x', '--pruner', '/no/such/p.ts', '--format', 'ai-sdk']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("/no/such/p.ts: the pruner module's file: does not exist");
    const badFormat = await cli([
      'experiment',
      '--out',
      '/tmp/x',
      '--pruner',
      prunerFile(dropToolTraffic),
      '--format',
      'gemini',
    ]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('--format');
    const noFormat = await cli(['experiment', '--out', '/tmp/x', '--pruner', prunerFile(dropToolTraffic)]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain('--pruner needs --format');
    const noOut = await cli(['experiment', '--pruner', prunerFile(dropToolTraffic), '--format', 'openai-chat']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--pruner needs --out');
  });

  it('names the condition after the file', () => {
    expect(prunerName('/x/My_Pruner.v2.ts')).toBe('my-pruner-v2');
    expect(prunerName('keep-last.mjs')).toBe('keep-last');
  });
});
