// `--policy` with a Mechanism (the small extension point, wrapped behind the gates) or a Condition, through the
// example modules the README shows, and the load check that names the file and the field of a wrong shape.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../src/artifacts/schema.js';
import { cli } from '../support/cli.js';
import { minimalFixture, minimalOracle, writeFixture } from '../support/minimal.js';

function policyFile(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-policy-'));
  const file = join(dir, 'policy.mjs');
  writeFileSync(file, body);
  return file;
}

async function run(policy: string, fixtureDir = writeFixture().dir, extra: readonly string[] = []) {
  const out = mkdtempSync(join(tmpdir(), 'prunelab-out-'));
  const r = await cli(['experiment', '--fixtures', fixtureDir, '--out', out, '--policy', policy, '--json', ...extra]);
  const decisions = (name: string): Record<string, string> =>
    Object.fromEntries(
      readFileSync(join(out, name, 'decisions.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { itemId: string; decision: string })
        .map((d) => [d.itemId, d.decision]),
    );
  return { ...r, out, decisions };
}

const everythingMechanism = `export default {
  rule: 'everything-goes', rung: 2, version: '0.3.0', description: 'says every candidate may go',
  assess: (view, candidates) => candidates.map((itemId) => ({ itemId, outcome: 'eligible', reason: 'said so' })),
};
`;
const everythingCondition = `export default {
  name: 'everything-goes', layer: 'comparator', rung: null, version: '0.3.0', description: 'prunes every item', reference: 'none',
  upperRisk: true, consultsObligations: false, parameters: {},
  decide: (view) => view.items.map((item) => ({ itemId: item.id, verdict: 'eligible', rule: 'everything-goes', rung: null, reason: 'said so', obligationsConsulted: [] })),
};
`;

describe('--policy with a Mechanism', () => {
  it('runs the example behind the gates as a Layer A condition named after its rule', async () => {
    const r = await run('examples/mechanism/policy.ts');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [s] = JSON.parse(r.stdout) as Summary[];
    expect([s!.condition, s!.layer, s!.rung, s!.upperRisk]).toEqual(['later-copy', 'A', 0, false]);
    // r1 has a later copy (r2); the last copy and everything that is not a result stay.
    expect(r.decisions('later-copy')).toEqual({ u1: 'KEEP', c1: 'KEEP', r1: 'PRUNE', c2: 'KEEP', r2: 'KEEP' });
    const manifest = JSON.parse(readFileSync(join(r.out, 'manifest.json'), 'utf8')) as {
      conditions: { name: string; version: string }[];
    };
    // The gate is part of what the condition decides: the recorded version raises the mechanism's major, as a built-in's does.
    expect(manifest.conditions.find((c) => c.name === 'later-copy')?.version).toBe('1.1.0');
  });

  it('cannot remove what the gates refuse, which the same rule written as a Condition does remove', async () => {
    const gated = await run(policyFile(everythingMechanism));
    expect(gated.code).toBe(0);
    const mine = gated.decisions('everything-goes');
    // u1 is the sole record of a user constraint: the regenerability gate refuses it; the calls go.
    expect(mine['u1']).not.toBe('PRUNE');
    expect(mine['c1']).toBe('PRUNE');
    expect(mine['c2']).toBe('PRUNE');
    const ungated = await run(policyFile(everythingCondition));
    expect(ungated.code).toBe(0);
    expect(ungated.decisions('everything-goes')['u1']).toBe('PRUNE');
  });

  it('refuses a wrong shape at load with exit 2, naming the file and the missing or wrong field', async () => {
    const cases: [string, RegExp][] = [
      [
        everythingMechanism.replace('rung: 2, ', ''),
        /policy\.mjs: the policy module's default export, field "rung": 0\.\.4/,
      ],
      [everythingMechanism.replace("rule: 'everything-goes'", "rule: 'Everything Goes'"), /field "rule"/],
      [everythingMechanism.replace("version: '0.3.0', ", ''), /field "version": a string/],
      [
        everythingMechanism.replace('assess:', 'assessment:'),
        /field "\(default export\)": export default a Mechanism \(rule, rung, version, assess\) or a Condition/,
      ],
      ['export default 42;\n', /field "\(default export\)"/],
    ];
    for (const [body, message] of cases) {
      const r = await cli(['experiment', '--out', '/tmp/x', '--policy', policyFile(body)]);
      expect(r.code, body).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('[PL_POLICY_MODULE]');
    }
  });

  it('fails the run with exit 1 on findings that break the contract, naming the finding and the field', async () => {
    const cases: [string, string][] = [
      [
        everythingMechanism.replace("outcome: 'eligible'", "outcome: 'gone'"),
        'assess() returned finding 0 (item "u1"), field "outcome"',
      ],
      [everythingMechanism.replace("reason: 'said so'", "reason: 'said so', bulk: true"), 'field "bulk"'],
      [
        everythingMechanism.replace('candidates.map(', '[...candidates, candidates[0]].map('),
        'assess() returned two findings for item "u1"',
      ],
      [
        everythingMechanism.replace(
          "candidates.map((itemId) => ({ itemId, outcome: 'eligible', reason: 'said so' }))",
          '({})',
        ),
        'assess() must return an array of findings',
      ],
    ];
    for (const [body, message] of cases) {
      const r = await run(policyFile(body));
      expect(r.code, message).toBe(1);
      expect(r.stderr).toContain('condition everything-goes on mini at pp1');
      expect(r.stderr).toContain(message);
    }
  });
});

describe('--policy with a Condition', () => {
  it('runs the example comparator: neither upper-risk nor Layer A, its reference recorded', async () => {
    const fixture = minimalFixture();
    // Two more listings, so the last three results stay and the oldest is cleared.
    fixture.items.splice(
      5,
      0,
      {
        id: 'c4',
        turn: 2,
        time: '2026-03-04T10:02:10Z',
        origin: 'model',
        kind: 'tool-call',
        content: 'shell ls test',
        tool: { name: 'shell', arguments: { cmd: 'ls test' }, callId: 'k4' },
      },
      {
        id: 'r4',
        turn: 2,
        time: '2026-03-04T10:02:12Z',
        origin: 'environment',
        kind: 'tool-result',
        content: 'a.test.ts\n',
        tool: { name: 'shell', arguments: { cmd: 'ls test' }, callId: 'k4' },
        status: { state: 'ok' },
      },
      {
        id: 'c5',
        turn: 2,
        time: '2026-03-04T10:02:20Z',
        origin: 'model',
        kind: 'tool-call',
        content: 'shell ls docs',
        tool: { name: 'shell', arguments: { cmd: 'ls docs' }, callId: 'k5' },
      },
      {
        id: 'r5',
        turn: 2,
        time: '2026-03-04T10:02:22Z',
        origin: 'environment',
        kind: 'tool-result',
        content: 'README.md\n',
        tool: { name: 'shell', arguments: { cmd: 'ls docs' }, callId: 'k5' },
        status: { state: 'ok' },
      },
    );
    const { dir } = writeFixture(fixture, minimalOracle());
    const r = await run('examples/condition/policy.ts', dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [s] = JSON.parse(r.stdout) as Summary[];
    expect([s!.condition, s!.layer, s!.upperRisk]).toEqual(['keep-last-tool-results', 'comparator', false]);
    expect(r.decisions('keep-last-tool-results')).toMatchObject({
      r1: 'PRUNE',
      r2: 'KEEP',
      r4: 'KEEP',
      r5: 'KEEP',
      u1: 'KEEP',
      c1: 'KEEP',
    });
  });
});

describe('the comparisons a --policy condition gets', () => {
  it('pairs it with raw and the proposed ladder in the report, whatever layer it declares', async () => {
    const { dir } = writeFixture();
    for (const [policy, name] of [
      ['examples/mechanism/policy.ts', 'later-copy'],
      ['examples/condition/policy.ts', 'keep-last-tool-results'],
    ] as const) {
      const r = await run(policy, dir, ['--condition', `raw,ladder-0-3,${name}`]);
      expect(r.code, r.stderr).toBe(0);
      const report = await cli(['report', '--results', r.out]);
      expect(report.code, report.stderr).toBe(0);
      const secondary = readFileSync(join(r.out, 'tables', 'comparisons-secondary.csv'), 'utf8');
      expect(secondary).toContain(`${name}-vs-raw`);
      expect(secondary).toContain(`${name}-vs-ladder-0-3`);
      // Nothing else is paired with it: its own layer gives it no built-in's comparisons.
      expect(secondary.split('\n').filter((l) => l.includes(name))).toHaveLength(2);
    }
  }, 180_000); // two runs and two reports on a shared, loaded machine
});
