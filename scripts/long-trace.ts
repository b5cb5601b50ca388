// A synthetic long trajectory for measuring how cost grows with the length of one trace (npm run bench). It is
// built from one repeating block of an agent's work: a reasoning note, a read of a file, an edit of it (a recorded,
// succeeded effect), a re-read that supersedes the first read, a test run (errored every third block, with coverage
// keys), a pure search repeated with the same arguments (an exact copy), a read of a hot file every session reads
// over and over (package.json, the same bytes), now and then a non-idempotent post, a user constraint and a closed
// work unit with its consequence. Files are touched near each other, as in a real session, except the hot file and
// the test suite, which every block revisits: those are the per-source histories that grow with the trace. Three
// prune points (a third, two thirds, near the end) carry visible and downstream obligations, pending steps and work
// units; the oracle calls every read superseded by its re-read and every earlier copy removable, the rest
// necessary. Only the shape matters here, not the labels: the bench measures time, not quality.
import { sha256 } from '../src/fixture/canonical.js';
import type { LoadedFixture } from '../src/fixture/load.js';
import { Fixture, Oracle } from '../src/fixture/schema.js';

const WORDS = [
  'pool',
  'timeout',
  'retry',
  'cache',
  'parser',
  'config',
  'session',
  'token',
  'router',
  'schema',
  'queue',
  'worker',
  'logger',
  'metrics',
  'handler',
  'client',
  'socket',
  'buffer',
  'stream',
  'index',
];

const word = (n: number): string => WORDS[n % WORDS.length]!;

function code(file: string, version: number, block: number): string {
  const lines = Array.from(
    { length: 12 },
    (_, i) =>
      `export function ${word(block + i)}${i}(input: ${word(i + version)}): number { return input.${word(block * 3 + i)} + ${version}; }`,
  );
  return `// ${file} v${version}\n${lines.join('\n')}`;
}

/** A fixture of about `items` items (whole blocks), with its oracle, ready for the engine. */
export function longTrace(items: number): LoadedFixture {
  const out: Record<string, unknown>[] = [];
  const sources: { identity: string; history: { fromTurn: number; content: string }[] }[] = [];
  const store: { key: string; content: string; fromTurn: number }[] = [];
  const removable: string[] = [];
  const units: Record<string, unknown>[] = [];
  let turn = 0;
  const time = (t: number) => new Date(Date.UTC(2026, 0, 1) + t * 1000).toISOString().replace('.000Z', 'Z');
  const push = (item: Record<string, unknown>) => out.push({ turn, time: time(turn), ...item });
  const call = (id: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    push({
      id: `c${id}`,
      origin: 'model',
      kind: 'tool-call',
      content: `${name} ${JSON.stringify(args)}`,
      tool: { name, arguments: args, callId: `k${id}` },
      ...extra,
    });
  const result = (
    id: string,
    name: string,
    args: Record<string, unknown>,
    content: string,
    extra: Record<string, unknown> = {},
  ) =>
    push({
      id: `r${id}`,
      origin: 'environment',
      kind: 'tool-result',
      content,
      tool: { name, arguments: args, callId: `k${id}` },
      status: { state: 'ok' },
      ...extra,
    });
  const pkg = `{"name":"app","version":"1.0.0","dependencies":{"${word(1)}":"^2.0.0","${word(2)}":"^3.1.0"}}`;
  sources.push({ identity: 'package.json', history: [{ fromTurn: 0, content: pkg }] });
  for (let b = 0; out.length < items; b += 1) {
    const file = `src/${word(b)}/${word(b >> 1)}-${b >> 2}.ts`;
    const before = code(file, 1, b);
    const after = code(file, 2, b);
    sources.push({
      identity: file,
      history: [
        { fromTurn: 0, content: before },
        { fromTurn: turn + 3, content: after },
      ],
    });
    if (b % 40 === 0)
      push({
        id: `u${b}`,
        origin: 'user',
        kind: 'constraint',
        content: `never change the public ${word(b)} API in block ${b}`,
        flags: { soleConstraintRecord: true },
      });
    push({
      id: `m${b}`,
      origin: 'model',
      kind: 'reasoning',
      content: `the ${word(b)} ${word(b + 7)} bug is probably in ${file}; read it, then fix the ${word(b + 3)} path`,
    });
    turn += 1;
    const read = { path: file };
    call(`${b}a`, 'read_file', read);
    result(`${b}a`, 'read_file', read, before, {
      source: { identity: file, version: { kind: 'content-hash', value: sha256(before).slice(0, 16) }, mutable: true },
    });
    turn += 1;
    const edit = { path: file, old: word(b), new: word(b + 1) };
    call(`${b}b`, 'edit_file', edit, { effects: [{ source: file, outcome: 'succeeded' }] });
    result(`${b}b`, 'edit_file', edit, `applied 1 change to ${file}`);
    turn += 1;
    call(`${b}c`, 'read_file', read);
    result(`${b}c`, 'read_file', read, after, {
      source: { identity: file, version: { kind: 'content-hash', value: sha256(after).slice(0, 16) }, mutable: true },
    });
    removable.push(`r${b}a`);
    turn += 1;
    const tests = { suite: 'unit' };
    const failing = b % 3 === 0;
    call(`${b}d`, 'run_tests', tests);
    result(
      `${b}d`,
      'run_tests',
      tests,
      failing
        ? `FAIL ${file}: expected ${word(b)} to equal ${b}\n${'  at stack frame\n'.repeat(8)}`
        : `PASS ${b * 7 + 40} tests`,
      {
        covers: ['unit'],
        source: { identity: 'tests/unit', version: 'UNKNOWN', mutable: true },
        ...(failing
          ? {
              status: {
                state: 'error',
                errorType: 'AssertionError',
                message: `expected ${word(b)}`,
                fields: { exitCode: '1' },
              },
            }
          : {}),
      },
    );
    turn += 1;
    const grep = { pattern: word(b >> 1) };
    const grepOut = `src/${word(b >> 1)}/a.ts:3: ${word(b >> 1)}\nsrc/${word(b >> 1)}/b.ts:9: ${word(b >> 1)}`;
    call(`${b}e`, 'grep', grep);
    result(`${b}e`, 'grep', grep, grepOut);
    if (b % 2 === 1) removable.push(`r${b - 1}e`);
    if (b % 5 === 0) {
      // Every other read names its encoding: another call (not an exact copy), the same view and state (rung 1).
      const read2 = b % 10 === 5 ? { path: 'package.json', encoding: 'utf8' } : { path: 'package.json' };
      call(`${b}f`, 'read_file', read2);
      result(`${b}f`, 'read_file', read2, pkg, {
        source: {
          identity: 'package.json',
          version: { kind: 'content-hash', value: sha256(pkg).slice(0, 16) },
          mutable: true,
        },
      });
      if (b >= 5) removable.push(`r${b - 5}f`);
    }
    if (b % 7 === 0) {
      const post = { issue: b, body: `fixed ${word(b)}` };
      call(`${b}g`, 'post_comment', post);
      result(`${b}g`, 'post_comment', post, `comment ${b} posted`);
    }
    const key = `notes/${b}`;
    const note = `fixed the ${word(b + 3)} path in ${file}`;
    store.push({ key, content: note, fromTurn: turn });
    units.push({
      id: `w${b}`,
      description: `fix ${file}`,
      state: b % 9 === 4 ? 'closed-unresolved' : 'closed',
      traceItems: [`m${b}`, `c${b}a`, `r${b}a`, `c${b}e`, `r${b}e`],
      consequence:
        b % 2 === 0
          ? { itemId: `r${b}b`, strings: [`applied 1 change to ${file}`] }
          : { pointer: { storeKey: key, contentHash: `sha256:${sha256(note)}` }, strings: [note] },
    });
    turn += 1;
  }
  const last = turn - 1;
  const points = [Math.floor(last / 3), Math.floor((2 * last) / 3), last - 3].map((t, i) => ({
    id: `pp${i + 1}`,
    turn: t,
    time: time(t),
    budgetTokens: 50_000,
    subgoal: `fix the ${word(i)} ${word(i + 5)} handling`,
    visible: {
      pinned: ['m0'],
      protectedTools: ['post_comment'],
      obligations: [0, 1, 2].map((j) => ({
        id: `v${i}${j}`,
        description: 'keep the constraint',
        neededAtTurn: t + 1,
        needs: { itemIds: [], strings: [`block ${40 * j}`] },
        probe: { question: 'what must not change?', expectedAnswer: 'the public API' },
      })),
      pendingSteps: [{ id: `s${i}`, description: 'rerun the tests', references: ['r0d'] }],
      workUnits: units.slice(0, Math.floor(((i + 1) * units.length) / 3) - 2),
    },
    downstream: [0, 1].map((j) => ({
      id: `d${i}${j}`,
      description: 'the package name',
      neededAtTurn: t + 5,
      needs: { itemIds: [], strings: [j === 0 ? '"name":"app"' : `${word(j)}0(input`] },
      rereadSatisfies: true,
      probe: { question: 'which package?', expectedAnswer: 'app' },
    })),
  }));
  const fixture = Fixture.parse({
    schemaVersion: 1,
    id: `long-trace-${items}`,
    title: `synthetic long trace of ${items} items`,
    description: 'scripts/long-trace.ts, for npm run bench',
    tools: [
      { name: 'read_file', sideEffect: 'read-mutable' },
      { name: 'edit_file', sideEffect: 'non-idempotent' },
      { name: 'run_tests', sideEffect: 'read-mutable' },
      { name: 'grep', sideEffect: 'pure' },
      { name: 'post_comment', sideEffect: 'non-idempotent' },
    ],
    items: out,
    world: { sources, store },
    prunePoints: points,
  });
  const oracle = Oracle.parse({
    schemaVersion: 1,
    fixtureId: fixture.id,
    points: fixture.prunePoints.map((p) => ({
      prunePoint: p.id,
      removable: removable.filter((id) => fixture.items.find((x) => x.id === id)!.turn <= p.turn),
    })),
  });
  return { file: `long-trace-${items}.json`, sha256: '', fixture, oracleFile: null, oracleSha256: null, oracle };
}
