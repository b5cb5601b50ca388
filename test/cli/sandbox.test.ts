// A --policy module runs sandboxed: it may read its own folder and nothing else. Both sides are tested: what it must
// still be able to do (import its helpers, read data beside it, return the same decisions as in-process) and what
// it must be refused with a clear error (oracles, fixtures, results, links out, writes, processes, bindings, hangs).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { loadPolicyModule } from '../../src/cli/policy-module.js';
import { runStudy } from '../../src/engine/run.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { CONTENT_CHECK_LIMIT, labelsIn } from '../../src/sandbox/folder.js';
import type { Condition } from '../../src/policy/types.js';
import { cli } from '../support/cli.js';
import { writeFixture } from '../support/minimal.js';

const ROOT = process.cwd();
const ORACLE = join(ROOT, 'fixtures', 'canonical', 'oracles', 'exit-code-137.oracle.json');
const VIEW_HELPERS = join(ROOT, 'src', 'fixture', 'view.ts');

/** A folder of its own holding `files`; returns the path of `policy.ts` (or the first file named). */
function policyFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-sandboxed-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return join(dir, Object.keys(files)[0]!);
}

/** A condition that keeps everything, after running `body` inside decide (`body` may use `fs` and `view`). */
function keeper(body: string, header = ''): string {
  return `import fs from 'node:fs';
${header}
export default {
  name: 'mine', layer: 'A', rung: 0, version: '1', description: 'keeps all', upperRisk: false, consultsObligations: false, parameters: {},
  decide(view) {
    ${body}
    return view.items.map((item) => ({ itemId: item.id, verdict: 'keep', rule: 'mine', rung: null, reason: 'kept', obligationsConsulted: [] }));
  },
};
`;
}

async function runPolicy(policy: string, extra: readonly string[] = []) {
  const { dir } = writeFixture();
  const out = mkdtempSync(join(tmpdir(), 'prunelab-out-'));
  const r = await cli(['experiment', '--fixtures', dir, '--out', out, '--policy', policy, ...extra]);
  return { ...r, out, dir, written: readdirSync(out) };
}

describe('what a sandboxed policy may still do', () => {
  it('imports a TypeScript helper beside it and reads a data file in its folder', async () => {
    const policy = policyFolder({
      'policy.ts': `import { readFileSync } from 'node:fs';
import { verdictFor } from './helper.js';
const weights: Record<string, string> = JSON.parse(readFileSync(new URL('./data/weights.json', import.meta.url), 'utf8'));
export default {
  name: 'mine', layer: 'A', rung: 0, version: '1', description: 'd', upperRisk: false, consultsObligations: false, parameters: {},
  decide: (view: { items: readonly { id: string; kind: string }[] }) => view.items.map((item) => verdictFor(item, weights)),
};
`,
      'helper.ts': `export function verdictFor(item: { id: string; kind: string }, weights: Record<string, string>) {
  const eligible = weights[item.kind] === 'drop';
  return { itemId: item.id, verdict: eligible ? 'eligible' : 'keep', rule: 'mine', rung: eligible ? 0 : null, reason: 'by weight', obligationsConsulted: [] };
}
`,
      'data/weights.json': JSON.stringify({ 'tool-call': 'drop' }),
    });
    const r = await runPolicy(policy, ['--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [summary] = JSON.parse(r.stdout) as { condition: string; precision: unknown }[];
    expect(summary!.condition).toBe('mine');
    expect(summary!.precision).toEqual({ numerator: 2, denominator: 2, value: 1 });
  });

  it('gives the same decisions as the same module run in-process, over a canonical fixture, helpers included', async () => {
    // Uses prunelab's own view helpers (bundled into the sandbox) and the view's store, blocks and tokens.
    const policy = policyFolder({
      'policy.ts': `import { blocksOf, counterpart, resolveInView, repetitionOf } from ${JSON.stringify(VIEW_HELPERS)};
export default {
  name: 'mine', layer: 'B', rung: 1, version: '1', description: 'd', upperRisk: false, consultsObligations: false, parameters: { k: 2 },
  decide(view: any) {
    return view.items.map((item: any, i: number) => {
      const pointer = item.pointer ? resolveInView(view, item.pointer) : undefined;
      const blocks = blocksOf(item).length;
      const eligible = item.kind === 'tool-result' && counterpart(view.items, item) !== undefined && i % 2 === 0;
      return { itemId: item.id, verdict: eligible ? 'eligible' : i % 5 === 0 ? 'abstain' : 'keep', rule: 'mine', rung: eligible ? 1 : null,
        reason: [blocks, item.tokens, repetitionOf(view, item.tool?.name), JSON.stringify(pointer ?? null), view.store.length].join(' '),
        obligationsConsulted: view.visible.obligations.map((o: any) => o.id) };
    });
  },
};
`,
    });
    const fixtures = loadFixtures(
      join(ROOT, 'fixtures', 'canonical', 'rule-closure-verified-pointer.json'),
      ROOT,
      () => undefined,
    );
    const inProcess = ((await import(pathToFileURL(policy).href)) as { default: Condition }).default;
    const loaded = await loadPolicyModule(policy, ROOT, new Set(), {
      offLimits: { fixtures: [], results: [] },
      timeoutMs: 30_000,
    });
    try {
      const options = {
        fixtures,
        timing: { kind: 'immediate' as const },
        placeholders: 'marker' as const,
        tokens: tokenCounter(),
      };
      const [here] = runStudy({ ...options, conditions: [inProcess] });
      const [there] = runStudy({ ...options, conditions: [loaded] });
      expect(here!.records.length).toBeGreaterThan(0);
      expect(new Set(here!.records.map((r) => r.decision))).toEqual(new Set(['KEEP', 'PRUNE', 'ABSTAIN']));
      expect(JSON.stringify(there!.records)).toBe(JSON.stringify(here!.records));
      expect(JSON.stringify(there!.points)).toBe(JSON.stringify(here!.points));
      expect(JSON.stringify(there!.summary)).toBe(JSON.stringify(here!.summary));
    } finally {
      loaded.sandbox.close();
    }
  });

  it('passes a thrown error through as the engine reports any policy that throws', async () => {
    const r = await runPolicy(policyFolder({ 'policy.mjs': keeper("throw new Error('no view for me');") }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('condition mine on mini at pp1: decide() threw: no view for me');
    expect(r.written).toEqual([]);
  });
});

describe('what a sandboxed policy is refused, with a clear error and nothing written', () => {
  const refused: [string, string, (fixtureDir: string) => string, RegExp][] = [
    [
      'an oracle by absolute path',
      'read',
      () => `fs.readFileSync(${JSON.stringify(ORACLE)});`,
      /policy\.mjs: the policy tried to read fixtures\/canonical\/oracles\/exit-code-137\.oracle\.json, which its sandbox refuses: it is an oracle/,
    ],
    [
      "a fixture's oracle through a relative path",
      'read',
      () => "fs.readFileSync('fixtures/canonical/../canonical/oracles/exit-code-137.oracle.json');",
      /tried to read fixtures\/canonical\/oracles\/exit-code-137\.oracle\.json, which its sandbox refuses: it is an oracle/,
    ],
    [
      "the run's own oracle",
      'read',
      (d) => `fs.readFileSync(${JSON.stringify(join(d, 'oracles', 'mini.oracle.json'))});`,
      /mini\.oracle\.json, which its sandbox refuses: it is an oracle/,
    ],
    [
      "the run's fixture file, which holds the hidden obligations",
      'read',
      (d) => `fs.readFileSync(${JSON.stringify(join(d, 'mini.json'))});`,
      /mini\.json, which its sandbox refuses: it is a fixture file, which holds the downstream obligations hidden/,
    ],
    [
      'the results folder',
      'read',
      () => "fs.readdirSync('results');",
      /tried to read results, which its sandbox refuses: it holds results/,
    ],
    [
      'any other file',
      'read',
      () => "fs.readFileSync('/etc/hostname');",
      /tried to read \/etc\/hostname, which its sandbox refuses: it is outside the module's own folder/,
    ],
    [
      'a write, even into its own folder',
      'write',
      () => "fs.writeFileSync(new URL('./note.txt', import.meta.url), 'x');",
      /tried to write .*note\.txt, which its sandbox refuses: a policy is a pure function/,
    ],
    [
      'a child process',
      'spawn',
      () => "(await import('node:child_process')).execFileSync('cat', [" + JSON.stringify(ORACLE) + ']);',
      /tried to start a child process/,
    ],
    ['process.binding', 'binding', () => "process.binding('fs');", /tried to use process\.binding/],
    [
      'a native addon',
      'addon',
      () => "process.dlopen({ exports: {} }, new URL('./x.node', import.meta.url).pathname);",
      /tried to load a native addon/,
    ],
    [
      'a worker thread',
      'thread',
      () => "new (await import('node:worker_threads')).Worker('1', { eval: true });",
      /tried to start a worker thread/,
    ],
    // Node 20 has no network permission: the child closes the network itself before the policy loads.
    [
      'a socket to 127.0.0.1, while loading',
      'network',
      () => "(await import('node:net')).connect(9, '127.0.0.1');",
      /tried to use the network \(net\.connect\), which its sandbox refuses: a policy is a pure function/,
    ],
    [
      'a socket to 127.0.0.1 through a Socket',
      'network',
      () => "new (await import('node:net')).Socket().connect({ port: 9, host: '127.0.0.1' });",
      /tried to use the network \(net\.Socket\.connect\)/,
    ],
    [
      'an HTTP request to 127.0.0.1',
      'network',
      () => "(await import('node:http')).get('http://127.0.0.1:9/');",
      /tried to use the network \(http\.get\)/,
    ],
    ['fetch, at a prune point', 'network', () => "fetch('http://127.0.0.1:9/');", /tried to use the network \(fetch\)/],
    [
      'a UDP socket',
      'network',
      () => "(await import('node:dgram')).createSocket('udp4');",
      /tried to use the network \(dgram\.createSocket\)/,
    ],
    [
      'a DNS lookup',
      'network',
      () => "(await import('node:dns')).lookup('example.org', () => {});",
      /tried to use the network \(dns\.lookup\)/,
    ],
  ];
  for (const [what, , body, message] of refused) {
    it(`refuses ${what}`, async () => {
      const { dir } = writeFixture();
      // Top-level await is allowed in a module, so a refused access while loading is tested too.
      const atLoad = body(dir).includes('await');
      const policy = policyFolder({ 'policy.mjs': atLoad ? keeper('', body(dir)) : keeper(body(dir)) });
      const out = mkdtempSync(join(tmpdir(), 'prunelab-out-'));
      const r = await cli(['experiment', '--fixtures', dir, '--out', out, '--policy', policy]);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('[PL_POLICY_SANDBOX_DENIED]');
      expect(r.code).toBe(2);
      expect(readdirSync(out)).toEqual([]);
    });
  }

  it('refuses to compile in an oracle, a fixture or any file outside its folder that a module imports', async () => {
    const cases: [string, RegExp][] = [
      [
        `import labels from ${JSON.stringify(ORACLE)} with { type: 'json' };`,
        /tried to import fixtures\/canonical\/oracles\/exit-code-137\.oracle\.json, which its sandbox refuses: it is an oracle/,
      ],
      [
        `import fx from ${JSON.stringify(join(ROOT, 'fixtures', 'canonical', 'exit-code-137.json'))} with { type: 'json' };`,
        /tried to import fixtures\/canonical\/exit-code-137\.json, which its sandbox refuses: it is a fixture file/,
      ],
      [
        `import { GENERATOR } from ${JSON.stringify(join(ROOT, 'src', 'corpus', 'corpus.ts'))};`,
        /tried to import src\/corpus\/corpus\.ts, which its sandbox refuses: it is prunelab's corpus generator/,
      ],
      [
        `import { minimalOracle } from ${JSON.stringify(join(ROOT, 'test', 'support', 'minimal.ts'))};`,
        /tried to import test\/support\/minimal\.ts, which its sandbox refuses: it is outside the module's own folder/,
      ],
    ];
    for (const [header, message] of cases) {
      const r = await runPolicy(policyFolder({ 'policy.mjs': keeper('', header) }));
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
      expect(r.written).toEqual([]);
    }
  });

  it('refuses a folder holding a symbolic link out of it (the permission model would follow it)', async () => {
    const policy = policyFolder({
      'policy.mjs': keeper("fs.readFileSync(new URL('./labels.json', import.meta.url));"),
    });
    symlinkSync(ORACLE, join(policy, '..', 'labels.json'));
    const r = await runPolicy(policy);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /cannot be its sandbox, which grants the whole folder: .*labels\.json: a symbolic link out of the folder, to .*exit-code-137\.oracle\.json/,
    );
    expect(r.stderr).toContain('[PL_POLICY_SANDBOX_FOLDER]');
    expect(r.written).toEqual([]);
  });

  it('refuses a folder that holds an oracle, or the fixtures, or that lies inside them', async () => {
    const withOracle = policyFolder({ 'policy.mjs': keeper(''), 'copy/oracles/a.oracle.json': '{}' });
    const r = await runPolicy(withOracle);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/copy\/oracles: it is an oracle/);
    const { dir } = writeFixture();
    writeFileSync(join(dir, 'policy.mjs'), keeper(''));
    const out = mkdtempSync(join(tmpdir(), 'prunelab-out-'));
    const beside = await cli(['experiment', '--fixtures', dir, '--out', out, '--policy', join(dir, 'policy.mjs')]);
    expect(beside.code).toBe(2);
    expect(beside.stderr).toMatch(/it is a fixture file/);
    expect(readdirSync(out)).toEqual([]);
  });

  it('refuses a folder holding a copy of an oracle or a fixture under another name (plain, gzipped or wrapped)', async () => {
    const oracle = readFileSync(ORACLE);
    const fixture = readFileSync(join(ROOT, 'fixtures', 'canonical', 'exit-code-137.json'));
    const copies: [string, Buffer | string, RegExp][] = [
      ['notes.dat', oracle, /notes\.dat: it is an oracle/],
      ['data/cache.bin', gzipSync(oracle), /data\/cache\.bin: it is an oracle/],
      [
        'settings.json',
        JSON.stringify({ cache: [{ extra: true, ...JSON.parse(oracle.toString('utf8')) }] }),
        /settings\.json: it is an oracle/,
      ],
      ['trace.txt', fixture, /trace\.txt: it is a fixture file/],
    ];
    for (const [name, bytes, message] of copies) {
      const policy = policyFolder({
        'policy.mjs': keeper(`fs.readFileSync(new URL(${JSON.stringify(`./${name}`)}, import.meta.url));`),
      });
      mkdirSync(join(policy, '..', name, '..'), { recursive: true });
      writeFileSync(join(policy, '..', name), bytes);
      const r = await runPolicy(policy);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('[PL_POLICY_SANDBOX_FOLDER]');
      expect(r.code).toBe(2);
      expect(r.written).toEqual([]);
    }
  });

  it('still lets a policy read JSON data beside it that is neither an oracle nor a fixture', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-data-'));
    const files: [string, string][] = [
      ['weights.json', JSON.stringify({ points: [{ x: 1 }], prunePoints: 3 })],
      ['table.json', JSON.stringify([{ prunePoint: 'p1' }])],
      ['text.md', 'points: prunePoint removable'],
    ];
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    for (const [name, text] of files) expect(labelsIn(join(dir, name), text.length)).toBeUndefined();
    writeFileSync(join(dir, 'big.json'), readFileSync(ORACLE));
    expect(labelsIn(join(dir, 'big.json'), CONTENT_CHECK_LIMIT + 1)).toBeUndefined();
    expect(labelsIn(join(dir, 'big.json'), 10)).toBe('oracle');
  });

  it('stops a policy that never answers, at the deadline, with a clear error', async () => {
    const started = performance.now();
    // 3 s rather than less: the deadline also covers loading the module, which on a loaded 2-core machine took over
    // 0.5 s, and this case is about a policy that loaded and then never answers. It blocks its thread without spinning
    // (a spinning policy is the next case's, while loading), so the wait costs the suite no CPU.
    const r = await runPolicy(
      policyFolder({ 'policy.mjs': keeper('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);') }),
      ['--policy-timeout', '3'],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'policy.mjs: the policy gave no answer within 3 s on mini at pp1; its process was stopped',
    );
    expect(r.stderr).toContain('[PL_POLICY_TIMEOUT]');
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(r.written).toEqual([]);
  });

  it('stops a policy that never finishes loading', async () => {
    const r = await runPolicy(policyFolder({ 'policy.mjs': keeper('', 'for (;;) {}') }), ['--policy-timeout', '0.5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the policy gave no answer within 0.5 s while loading');
  });

  it('reports a policy whose process ends, and one that does not load', async () => {
    const ended = await runPolicy(policyFolder({ 'policy.mjs': keeper('process.exit(7);') }));
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain("policy.mjs: the policy's process ended (exit code 7) on mini at pp1");
    const broken = await runPolicy(
      policyFolder({ 'policy.ts': "import { nothing } from './missing.js';\nexport default nothing;\n" }),
    );
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /policy\.ts: the policy module could not be loaded: .*Could not resolve "\.\/missing\.js"/,
    );
    const throwsAtLoad = await runPolicy(policyFolder({ 'policy.mjs': keeper('', "throw new Error('not today');") }));
    expect(throwsAtLoad.code).toBe(2);
    expect(throwsAtLoad.stderr).toContain('the policy module could not be loaded: not today');
  });

  it('rejects a --policy-timeout that is not a positive number of seconds', async () => {
    const r = await cli(['experiment', '--out', '/tmp/x', '--policy', 'p.ts', '--policy-timeout', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('option --policy-timeout does not take "0": expected a positive number of seconds');
    expect(existsSync(resolve('p.ts'))).toBe(false);
  });
});
