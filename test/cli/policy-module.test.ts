import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/artifacts/schema.js';
import { cli } from '../support/cli.js';
import { writeFixture } from '../support/minimal.js';
import { experimentOnFixture, moduleFile } from '../support/module-file.js';

const policyFile = (body: string): string => moduleFile(body, 'policy.mjs');

const dropCalls = `export default {
  name: 'drop-calls', layer: 'A', rung: 0, version: '0.1.0', description: 'removes tool calls',
  upperRisk: false, consultsObligations: false, parameters: {},
  decide: (view) => view.items.map((item) => item.kind === 'tool-call'
    ? { itemId: item.id, verdict: 'eligible', rule: 'drop-calls', rung: 0, reason: 'a call record', obligationsConsulted: [] }
    : { itemId: item.id, verdict: 'keep', rule: 'drop-calls', rung: null, reason: 'not a call', obligationsConsulted: [] }),
};
`;

describe('running your own policy with --policy', () => {
  it('scores a policy module beside the built-ins on the same fixtures', async () => {
    const r = await experimentOnFixture(['--policy', policyFile(dropCalls), '--condition', 'raw,drop-calls', '--json']);
    const out = r.out;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summaries = JSON.parse(r.stdout) as Summary[];
    expect(summaries.map((s) => s.condition)).toEqual(['raw', 'drop-calls']);
    expect(summaries[1]!.precision).toEqual({ numerator: 2, denominator: 2, value: 1 });
    expect(existsSync(join(out, 'drop-calls', 'decisions.jsonl'))).toBe(true);
  });

  it('needs --out, so the committed study is never mixed with a private policy', async () => {
    const r = await cli(['experiment', '--policy', policyFile(dropCalls)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--policy needs --out');
  });

  it('rejects a module whose export is not a condition, naming the field', async () => {
    const r = await cli([
      'experiment',
      '--out',
      '/tmp/x',
      '--policy',
      policyFile(dropCalls.replace("layer: 'A'", "layer: 'Z'")),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/policy\.mjs: the policy module's default export, field "layer"/);
  });

  it('exits 2 on a missing module or one that does not load', async () => {
    const missing = await cli(['experiment', '--out', '/tmp/x', '--policy', '/no/such/policy.ts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('policy module /no/such/policy.ts does not exist');
    const broken = await cli(['experiment', '--out', '/tmp/x', '--policy', policyFile('export default {;')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/policy\.mjs: the policy module could not be loaded/);
  });

  it('checks every eligibility a policy returns, naming the item and the field', async () => {
    const { dir } = writeFixture();
    const cases: [string, string][] = [
      [
        dropCalls.replace("rung: 0, reason: 'a call record'", "rung: 9, reason: 'a call record'"),
        'eligibility 1 (item "c1"), field "rung"',
      ],
      [
        dropCalls.replace(', obligationsConsulted: [] }\n    : {', ' }\n    : {'),
        'eligibility 1 (item "c1"), field "obligationsConsulted"',
      ],
      [
        dropCalls.replace("verdict: 'eligible', rule", "verdict: 'eligible', residue: ['bulk'], rule"),
        'field "residue.0"',
      ],
      [
        dropCalls.replace(
          'decide: (view) =>',
          'decide: () => { throw new Error("no view for me"); },\n  unused: (view) =>',
        ),
        'decide() threw: no view for me',
      ],
    ];
    for (const [body, message] of cases) {
      const r = await experimentOnFixture(['--policy', policyFile(body)], { fixtures: dir });
      const out = r.out;
      expect(r.code, message).toBe(1);
      expect(r.stderr).toContain('condition drop-calls on mini at pp1');
      expect(r.stderr).toContain(message);
      expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    }
  });

  it('fails with exit 1 when a policy breaks its contract, leaving earlier results untouched', async () => {
    const { dir } = writeFixture();
    const first = await experimentOnFixture(['--condition', 'raw'], { fixtures: dir });
    const out = first.out;
    expect(first.code).toBe(0);
    const before = readFileSync(join(out, 'manifest.json'), 'utf8');
    const broken = policyFile(dropCalls.replace('view.items.map(', 'view.items.slice(1).map('));
    const r = await experimentOnFixture(['--policy', broken, '--condition', 'raw,drop-calls'], { fixtures: dir, out });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('condition drop-calls on mini at pp1: returned 4 eligibilities for 5 items');
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(before);
    expect(existsSync(join(out, 'drop-calls'))).toBe(false);
  });
});
