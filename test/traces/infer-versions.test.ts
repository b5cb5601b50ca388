import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { Fixture, type Fixture as FixtureT } from '../../src/fixture/schema.js';
import { CANDIDATE_CLASSES, traceEcology } from '../../src/traces/ecology.js';
import { ecologyChartSpec, ecologyCsv, ecologyMarkdown, CHART_SERIES } from '../../src/traces/ecology-report.js';
import { totalEcology } from '../../src/traces/ecology.js';
import { inferAgentWriteVersions, withoutInferredVersions } from '../../src/traces/infer-versions.js';
import { distinctColours } from '../../src/report/render-chart.js';

type Step =
  | { readonly read: string }
  | { readonly edit: string; readonly failed?: boolean }
  | { readonly exec: true }
  | { readonly look: true };

/** A trace of reads, edits, shell commands and harmless looks, as an importer would build it. */
function trace(steps: readonly Step[]): FixtureT {
  const items: Record<string, unknown>[] = [
    { id: 'u', turn: 0, time: '2026-01-01T00:00:00Z', origin: 'user', kind: 'instruction', content: 'fix the bug' },
  ];
  steps.forEach((s, k) => {
    const t = k + 1;
    const time = `2026-01-01T00:${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}Z`;
    const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      id: `c${t}`,
      turn: t,
      time,
      origin: 'model',
      kind: 'tool-call',
      content: `${name} ${JSON.stringify(args)}`,
      tool: { name, arguments: args, callId: `k${t}` },
      ...extra,
    });
    const result = (
      name: string,
      args: Record<string, unknown>,
      content: string,
      extra: Record<string, unknown> = {},
    ) => ({
      id: `r${t}`,
      turn: t,
      time,
      origin: 'environment',
      kind: 'tool-result',
      content,
      tool: { name, arguments: args, callId: `k${t}` },
      status: { state: 'ok' },
      ...extra,
    });
    if ('read' in s) {
      // Each read its own call, so rung 0 cannot relate two reads and only rung 1 can. The bytes are the file's alone:
      // under a label that hashes nothing read (agent-writes), reads of one state must show the same bytes.
      items.push(call('read', { path: s.read, attempt: t }));
      items.push(
        result('read', { path: s.read, attempt: t }, `contents of ${s.read} ${'line\n'.repeat(40)}`, {
          source: { identity: s.read, version: 'UNKNOWN', mutable: 'UNKNOWN' },
        }),
      );
    } else if ('edit' in s) {
      const effect = s.failed ? { source: s.edit, outcome: 'failed' } : s.edit;
      items.push(call('edit', { path: s.edit }, { effects: [effect] }));
      items.push(result('edit', { path: s.edit }, 'edited'));
    } else if ('exec' in s) {
      items.push(call('shell.exec', { command: 'python run.py' }, { effects: [] }));
      items.push(result('shell.exec', { command: 'python run.py' }, `ran ${t}`));
    } else {
      items.push(call('shell.read', { command: `ls ${t}` }));
      items.push(result('shell.read', { command: `ls ${t}` }, `listing ${t}`));
    }
  });
  const last = steps.length + 1;
  return Fixture.parse({
    schemaVersion: 1,
    id: 'inferred',
    title: 'reads and writes',
    description: 'a generated trace',
    tools: [
      { name: 'read', sideEffect: 'read-mutable' },
      { name: 'edit', sideEffect: 'non-idempotent' },
      { name: 'shell.exec', sideEffect: 'non-idempotent' },
      { name: 'shell.read', sideEffect: 'read-mutable' },
    ],
    items,
    prunePoints: [
      {
        id: 'end',
        turn: last,
        time: '2026-01-01T01:00:00Z',
        budgetTokens: 100000,
        subgoal: 'end',
        visible: { obligations: [] },
        downstream: [],
      },
    ],
  });
}

const versions = (f: FixtureT) =>
  f.items.filter((i) => i.source).map((i) => (i.source!.version === 'UNKNOWN' ? 'UNKNOWN' : i.source!.version.value));

describe('versions inferred from the agent\'s own writes ("no writer but the agent")', () => {
  it('two reads with no write between them get the same version; a write to that file between them splits them', () => {
    expect(versions(inferAgentWriteVersions(trace([{ read: 'a.py' }, { look: true }, { read: 'a.py' }])))).toEqual([
      'w0.u0',
      'w0.u0',
    ]);
    expect(versions(inferAgentWriteVersions(trace([{ read: 'a.py' }, { edit: 'a.py' }, { read: 'a.py' }])))).toEqual([
      'w0.u0',
      'w1.u0',
    ]);
  });

  it('a write to another file leaves the version alone; a failed write does not count', () => {
    expect(versions(inferAgentWriteVersions(trace([{ read: 'a.py' }, { edit: 'b.py' }, { read: 'a.py' }])))).toEqual([
      'w0.u0',
      'w0.u0',
    ]);
    expect(
      versions(inferAgentWriteVersions(trace([{ read: 'a.py' }, { edit: 'a.py', failed: true }, { read: 'a.py' }]))),
    ).toEqual(['w0.u0', 'w0.u0']);
  });

  it("a shell command may have written anything: it splits every file's versions", () => {
    expect(versions(inferAgentWriteVersions(trace([{ read: 'a.py' }, { exec: true }, { read: 'a.py' }])))).toEqual([
      'w0.u0',
      'w0.u1',
    ]);
  });

  it('matches a relative write to an absolute read of the same file (one path ends the other)', () => {
    expect(
      versions(
        inferAgentWriteVersions(trace([{ read: '/repo/src/a.py' }, { edit: 'src/a.py' }, { read: '/repo/src/a.py' }])),
      ),
    ).toEqual(['w0.u0', 'w1.u0']);
    expect(
      versions(
        inferAgentWriteVersions(trace([{ read: '/repo/src/a.py' }, { edit: 'src/ba.py' }, { read: '/repo/src/a.py' }])),
      ),
    ).toEqual(['w0.u0', 'w0.u0']);
  });

  it('keeps a recorded version and records its own kind; the strict view sets inferred versions back to UNKNOWN', () => {
    const f = trace([{ read: 'a.py' }, { read: 'a.py' }]);
    const recorded = {
      ...f,
      items: f.items.map((i) =>
        i.id === 'r1'
          ? { ...i, source: { ...i.source!, version: { kind: 'content-hash' as const, value: 'abc' } } }
          : i,
      ),
    };
    const inferred = inferAgentWriteVersions(recorded);
    expect(inferred.items.find((i) => i.id === 'r1')!.source!.version).toEqual({ kind: 'content-hash', value: 'abc' });
    expect(inferred.items.find((i) => i.id === 'r2')!.source!.version).toEqual({
      kind: 'agent-writes',
      value: 'w0.u0',
    });
    expect(Fixture.safeParse(inferred).success).toBe(true);
    const strict = withoutInferredVersions(inferred);
    expect(versions(strict)).toEqual(['abc', 'UNKNOWN']);
  });

  it('property: two reads of a file share a version exactly when no write to it and no shell command came between', () => {
    const step = fc.oneof(
      fc.constantFrom<Step>(
        { read: 'a.py' },
        { read: 'b.py' },
        { edit: 'a.py' },
        { edit: 'b.py' },
        { exec: true },
        { look: true },
        { edit: 'a.py', failed: true },
      ),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 12 }), (steps) => {
        const f = inferAgentWriteVersions(trace(steps));
        const reads = steps.flatMap((s, k) => ('read' in s ? [{ k, file: s.read }] : []));
        const version = new Map(
          f.items
            .filter((i) => i.source)
            .map((i) => [Number(i.id.slice(1)) - 1, (i.source!.version as { value: string }).value]),
        );
        for (const x of reads)
          for (const y of reads) {
            if (x.file !== y.file || x.k >= y.k) continue;
            const between = steps.slice(x.k + 1, y.k);
            const changed = between.some((s) => 'exec' in s || ('edit' in s && s.edit === x.file && !s.failed));
            expect(version.get(x.k) === version.get(y.k)).toBe(!changed);
          }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the ecology under the assumption', () => {
  const tokens = tokenCounter();

  it('a repeated read the record cannot decide is undecided strictly and eligible under the assumption, as its own column', () => {
    const t = traceEcology(trace([{ read: 'a.py' }, { look: true }, { read: 'a.py' }]), tokens);
    const rr = t.candidates['repeated-read'];
    expect(rr.eligible.items).toBe(0);
    expect(rr.undecided.items).toBe(1);
    expect(rr.assumed.eligible.items).toBe(1);
    expect(rr.assumed.undecided.items).toBe(0);
    expect(t.anyClassAssumed.tokens).toBeGreaterThan(t.anyClass.tokens);
    expect(t.anyClass.tokens + t.rest.tokens).toBe(t.contextTokens);
  });

  it('a shell command between the reads leaves nothing for the assumption to decide', () => {
    const t = traceEcology(trace([{ read: 'a.py' }, { exec: true }, { read: 'a.py' }]), tokens);
    expect(t.candidates['repeated-read'].undecided.items).toBe(1);
    expect(t.candidates['repeated-read'].assumed.eligible.items).toBe(0);
    expect(t.anyClassAssumed).toEqual(t.anyClass);
  });

  it('an imported fixture already carrying inferred versions gives the same strict figures as one without them', () => {
    const f = trace([{ read: 'a.py' }, { look: true }, { read: 'a.py' }]);
    expect(traceEcology(inferAgentWriteVersions(f), tokens)).toEqual(traceEcology(f, tokens));
  });

  it('states the assumption in every output and labels it the weaker guarantee; the chart draws decided, assumed and undecided', () => {
    const t = traceEcology(trace([{ read: 'a.py' }, { look: true }, { read: 'a.py' }]), tokens);
    const total = totalEcology([t]);
    const md = ecologyMarkdown([t], total);
    expect(md).toContain('## Under the assumption "no writer but the agent" (a weaker guarantee)');
    expect(md).toMatch(/decided 0\.0% \(0\); assumed \+\d+\.\d% \(\d+\); undecided 0\.0% \(0\)/);
    const csv = ecologyCsv([t], total)
      .split('\n')
      .map((l) => l.split(','));
    expect(csv.find((r) => r[0] === 'inferred' && r[3] === 'repeated-read' && r[4] === 'assumed-eligible')![5]).toBe(
      '1',
    );
    const spec = ecologyChartSpec([t], total) as {
      data: { values: { evidence: string; class: string; tokens: number }[] };
      spec: { encoding: { color: { scale: { domain: string[]; range: string[] } } } };
    };
    const evidence = new Set(
      spec.data.values.filter((v) => v.class === CANDIDATE_CLASSES[1].short).map((v) => v.evidence),
    );
    expect([...evidence]).toEqual(CHART_SERIES.slice(0, 3));
    const { domain, range } = spec.spec.encoding.color.scale;
    expect(range).toHaveLength(domain.length);
    expect(new Set(range).size).toBe(range.length);
  });

  it('property: the palette never repeats a colour, however many series', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), (n) => {
        const colours = distinctColours(n);
        expect(colours).toHaveLength(n);
        expect(new Set(colours).size).toBe(n);
      }),
      { numRuns: 60 },
    );
  });
});
