// Invariants of rungs 0-2 over generated trajectories, checked against an independent statement of each rule rather
// than the mechanisms' own helpers: rung 0 pairs only equal calls (or declared-irrelevant repetition) of one recorded
// source (or none) with equal status and blocks; rung 1 pairs only reads of the same view whose survivor shows all the
// removed read showed; rung 2 never rests on a transition that did not succeed, nor on a newer observation of the
// state the older one recorded that does not show all the older showed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/fixture/canonical.js';
import { Fixture } from '../../src/fixture/schema.js';
import type { PolicyView, ViewItem } from '../../src/fixture/view.js';
import { buildView, effectsOf } from '../../src/fixture/view.js';
import { checkedSupersession } from '../../src/policy/mechanisms/checked-supersession.js';
import { exactRedundancy } from '../../src/policy/mechanisms/exact-redundancy.js';
import { sourceIdentity } from '../../src/policy/mechanisms/source-identity.js';
import { allConditions } from '../../src/policy/registry.js';
import { timeOf } from './build-view.js';

const RUNS = { numRuns: 300 };
const pick = <T>(list: readonly T[]) => fc.constantFrom(...list);
const HEX = ['a', 'b'].map((c) => c.repeat(64));

const observation = fc.record({
  tool: pick(['bash', 'read_file', 'cat']),
  args: pick([{ cmd: 'x' }, { cmd: 'y' }, { path: 'p', limit: 20 }]),
  // A stub and a rendering that holds 'OK' whole beside text equal or not: rung 1 must tell them apart.
  text: pick(['OK', 'OK\n', 'FAIL', 'read: OK (again)', 'File unchanged since last read']),
  image: fc.option(pick(HEX), { nil: undefined }),
  error: fc.boolean(),
  // UNKNOWN and an absent source record no identity: rung 0 reads both as none.
  identity: pick(['repo:p', 'repo:q', 'UNKNOWN', 'none']),
  version: pick([
    { kind: 'content-hash', value: 'h1' },
    { kind: 'git-sha', value: 'c1', of: 'blob' },
    { kind: 'git-sha', value: 'c1' },
    { kind: 'etag', value: 'e1' },
    { kind: 'agent-writes', value: '0' },
    'UNKNOWN',
  ] as const),
  mutable: fc.boolean(),
  selector: fc.option(
    pick([
      { kind: 'whole' },
      { kind: 'whole', truncated: true },
      { kind: 'lines', from: 1, to: 20 },
      { kind: 'lines', from: 5, to: 10 },
      { kind: 'search', query: 'acquire' },
      '1-20',
    ] as const),
    { nil: undefined },
  ),
  covers: fc.option(fc.subarray(['t1', 't2']), { nil: undefined }),
});

const trajectory = fc.record({
  entries: fc.array(
    fc.oneof(
      { arbitrary: observation.map((o) => ({ type: 'obs' as const, o })), weight: 4 },
      {
        arbitrary: fc
          .record({
            targets: fc.subarray(['repo:p', 'repo:q'], { minLength: 1 }),
            outcome: pick(['succeeded', 'failed', 'unknown', 'bare'] as const),
          })
          .map((e) => ({ type: 'edit' as const, e })),
        weight: 1,
      },
    ),
    { minLength: 2, maxLength: 10 },
  ),
  fixtureRepetition: fc.option(pick(['meaningful', 'irrelevant'] as const), { nil: undefined }),
  bashRepetition: fc.option(pick(['meaningful', 'irrelevant'] as const), { nil: undefined }),
});

type Plan = typeof trajectory extends fc.Arbitrary<infer T> ? T : never;

function toView(plan: Plan, restrict?: (outcome: string) => string): PolicyView {
  const items: Record<string, unknown>[] = [];
  plan.entries.forEach((entry, i) => {
    const base = { turn: i, time: timeOf(i) };
    if (entry.type === 'edit') {
      const outcome = restrict ? restrict(entry.e.outcome) : entry.e.outcome;
      // A bare string is resolved by effectsOf: alone it takes the call's status; beside another it is unknown.
      const effects =
        outcome === 'bare'
          ? entry.e.targets
          : outcome === 'bare-pair'
            ? [...entry.e.targets, 'repo:elsewhere']
            : entry.e.targets.map((source) => ({ source, outcome }));
      const tool = { name: 'edit', arguments: { n: i }, callId: `k${i}` };
      items.push({ ...base, id: `c${i}`, origin: 'model', kind: 'tool-call', content: 'edit', tool, effects });
      items.push({
        ...base,
        id: `e${i}`,
        origin: 'environment',
        kind: 'tool-result',
        content: 'edited',
        tool,
        status: { state: 'ok' },
      });
      return;
    }
    const o = entry.o;
    items.push({
      ...base,
      id: `r${i}`,
      origin: 'environment',
      kind: 'tool-result',
      content: o.text,
      ...(o.image
        ? {
            blocks: [
              { type: 'text', text: o.text },
              { type: 'image', mediaType: 'image/png', sha256: o.image },
            ],
          }
        : {}),
      tool: { name: o.tool, arguments: o.args, callId: `k${i}` },
      status: o.error ? { state: 'error', errorType: 'NonZeroExit', message: 'exit 1' } : { state: 'ok' },
      ...(o.identity === 'none'
        ? {}
        : {
            source: {
              identity: o.identity,
              version: o.version,
              mutable: o.mutable,
              ...(o.selector !== undefined ? { selector: o.selector } : {}),
            },
          }),
      ...(o.covers ? { covers: o.covers } : {}),
    });
  });
  const last = plan.entries.length;
  const fixture = Fixture.parse({
    schemaVersion: 1,
    id: 'rungs',
    title: 'rungs',
    description: 'generated',
    ...(plan.fixtureRepetition ? { repetition: plan.fixtureRepetition } : {}),
    tools: [
      { name: 'bash', sideEffect: 'read-mutable', ...(plan.bashRepetition ? { repetition: plan.bashRepetition } : {}) },
      { name: 'read_file', sideEffect: 'read-mutable' },
      { name: 'cat', sideEffect: 'read-mutable' },
      { name: 'edit', sideEffect: 'non-idempotent' },
    ],
    items,
    prunePoints: [{ id: 'pp', turn: last, time: timeOf(last), budgetTokens: 1000, subgoal: 'go' }],
  });
  return buildView(fixture, 'pp', (t) => t.length);
}

const viewArb = trajectory.map((plan) => toView(plan));
const all = (view: PolicyView) => view.items.map((i) => i.id);
const eligible = (findings: readonly { itemId: string; outcome: string }[]) =>
  findings.filter((f) => f.outcome === 'eligible').map((f) => f.itemId);
const byId = (view: PolicyView, id: string) => view.items.find((i) => i.id === id)!;

function irrelevant(view: PolicyView, tool: string): boolean {
  const declared = view.tools.find((t) => t.name === tool)?.repetition;
  return (declared ?? view.repetition) === 'irrelevant';
}

/** The source identity an item records: none when it has no source or an UNKNOWN one. */
const recorded = (item: ViewItem) =>
  item.source === undefined || item.source.identity === 'UNKNOWN' ? null : item.source.identity;

/**
 * Rung 0 stated independently: same tool, same recorded source (or none on both), same status, same blocks, and the
 * same canonical call unless declared irrelevant.
 */
function copies(view: PolicyView, a: ViewItem, b: ViewItem): boolean {
  if (a.kind !== 'tool-result' || b.kind !== 'tool-result' || a.tool?.name !== b.tool?.name) return false;
  if (recorded(a) !== recorded(b)) return false;
  if (JSON.stringify(a.status) !== JSON.stringify(b.status) || a.content !== b.content) return false;
  if (
    JSON.stringify(a.blocks ?? [{ type: 'text', text: a.content }]) !==
    JSON.stringify(b.blocks ?? [{ type: 'text', text: b.content }])
  )
    return false;
  return irrelevant(view, a.tool?.name ?? '') || canonicalJson(a.tool?.arguments) === canonicalJson(b.tool?.arguments);
}

/**
 * What rung 1's survivor must show, stated independently: every text the read shows (its content and each text block)
 * inside one text the survivor shows, and each of its image blocks among the survivor's.
 */
function showsAll(survivor: ViewItem, read: ViewItem): boolean {
  const texts = (i: ViewItem) => [i.content, ...(i.blocks ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []))];
  const images = (i: ViewItem) => (i.blocks ?? []).flatMap((b) => (b.type === 'image' ? [b.sha256] : []));
  return (
    texts(read).every((t) => texts(survivor).some((s) => s.includes(t))) &&
    images(read).every((h) => images(survivor).includes(h))
  );
}

/**
 * The state an observation's label establishes, stated independently: a content hash, a git blob, an etag, an
 * agent-writes count, an immutable source or a commit of one; none for UNKNOWN on a mutable source or a commit of one.
 */
function establishedState(item: ViewItem): string | undefined {
  const source = item.source;
  if (!source || source.identity === 'UNKNOWN') return undefined;
  const { version, mutable } = source;
  const of = (label: string) => `${source.identity} ${label}`;
  if (version === 'UNKNOWN') return mutable === false ? of('immutable') : undefined;
  if (version.kind === 'git-sha' && version.of !== 'blob')
    return mutable === false ? of(`commit ${version.value}`) : undefined;
  return of(`${version.kind}${version.kind === 'git-sha' ? ' blob' : ''} ${version.value}`);
}

function sameView(a: ViewItem, b: ViewItem): boolean {
  const norm = (s: unknown) =>
    s === undefined
      ? { kind: 'whole', truncated: false }
      : typeof s === 'string'
        ? s
        : { truncated: false, ...(s as object) };
  return (
    a.tool?.name === b.tool?.name && canonicalJson(norm(a.source?.selector)) === canonicalJson(norm(b.source?.selector))
  );
}

describe('rung properties over generated trajectories', () => {
  it('rung 0 finds an item eligible only on a copy with the same call (or declared-irrelevant repetition), status and blocks', () => {
    const er = exactRedundancy();
    fc.assert(
      fc.property(viewArb, (view) => {
        for (const id of eligible(er.assess(view, all(view)))) {
          const item = byId(view, id);
          expect(
            view.items.some((other) => other.id !== id && copies(view, item, other)),
            id,
          ).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('rung 1 finds a read eligible only on a later ok read of the same source and the same view', () => {
    const si = sourceIdentity();
    fc.assert(
      fc.property(viewArb, (view) => {
        for (const id of eligible(si.assess(view, all(view)))) {
          const item = byId(view, id);
          const index = view.items.indexOf(item);
          const twins = view.items
            .slice(index + 1)
            .filter(
              (o) =>
                o.kind === 'tool-result' &&
                o.status?.state === 'ok' &&
                o.source?.identity === item.source?.identity &&
                sameView(item, o),
            );
          expect(twins.length, id).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });

  it('rung 1 never removes a read whose text or blocks the read it pairs with does not show, and that read stays', () => {
    const si = sourceIdentity();
    const single = allConditions().find((c) => c.name === 'source-identity')!;
    fc.assert(
      fc.property(viewArb, (view) => {
        const decided = new Map(single.decide(view).map((d) => [d.itemId, d.verdict]));
        for (const f of si.assess(view, all(view))) {
          if (f.outcome !== 'eligible') continue;
          expect(f.reliesOn, f.itemId).toHaveLength(1);
          const survivor = byId(view, f.reliesOn![0]!);
          expect(showsAll(survivor, byId(view, f.itemId)), `${f.itemId} on ${survivor.id}`).toBe(true);
          expect(decided.get(survivor.id), `${survivor.id}, which ${f.itemId} rests on`).not.toBe('eligible');
        }
      }),
      RUNS,
    );
  });

  it('a ladder leaves in context what each of its removals rests on: the copy, the twin read, the newer observation', () => {
    const ladders = allConditions().filter((c) => ['ladder-0-1', 'ladder-0-2', 'ladder-0-4'].includes(c.name));
    fc.assert(
      fc.property(viewArb, (view) => {
        for (const ladder of ladders) {
          const decisions = ladder.decide(view);
          const stays = (o: ViewItem) => decisions.find((d) => d.itemId === o.id)!.verdict !== 'eligible';
          for (const d of decisions) {
            if (d.verdict !== 'eligible') continue;
            const item = byId(view, d.itemId);
            const later = view.items.slice(view.items.indexOf(item) + 1);
            const found =
              d.rule === 'exact-redundancy'
                ? view.items.some((o) => o.id !== item.id && stays(o) && copies(view, item, o))
                : d.rule === 'source-identity'
                  ? later.some(
                      (o) =>
                        stays(o) &&
                        o.status?.state === 'ok' &&
                        o.source?.identity === item.source?.identity &&
                        canonicalJson(o.source?.version) === canonicalJson(item.source?.version) &&
                        sameView(item, o) &&
                        showsAll(o, item),
                    )
                  : d.rule === 'checked-supersession'
                    ? later.some(
                        (o) =>
                          stays(o) &&
                          o.kind === 'tool-result' &&
                          o.status?.state === 'ok' &&
                          o.source?.identity === item.source?.identity,
                      )
                    : true;
            expect(found, `${ladder.name} removed ${d.itemId} by ${d.rule} with nothing it rests on left`).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('rung 2 rests on a newer observation of the state an older one recorded only where it shows all the older showed', () => {
    const cs = checkedSupersession();
    fc.assert(
      fc.property(viewArb, (view) => {
        for (const f of cs.assess(view, all(view))) {
          if (f.outcome !== 'eligible') continue;
          const older = byId(view, f.itemId);
          const newer = byId(view, f.reliesOn![0]!);
          const state = establishedState(older);
          if (state === undefined || state !== establishedState(newer)) continue;
          expect(showsAll(newer, older), `${f.itemId} on ${newer.id}`).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('rung 2 never finds an item eligible when no recorded transition succeeded', () => {
    const cs = checkedSupersession();
    const notSucceeded = trajectory.chain((plan) =>
      fc
        .constantFrom('failed', 'unknown', 'bare-pair')
        .map((o) => toView(plan, (outcome) => (outcome === 'succeeded' || outcome === 'bare' ? o : outcome))),
    );
    fc.assert(
      fc.property(notSucceeded, (view) => {
        expect(eligible(cs.assess(view, all(view)))).toEqual([]);
      }),
      RUNS,
    );
  });

  it('rung 2 eligibility always has a successful effect on the source between the item and a later ok observation', () => {
    const cs = checkedSupersession();
    fc.assert(
      fc.property(viewArb, (view) => {
        for (const id of eligible(cs.assess(view, all(view)))) {
          const item = byId(view, id);
          expect(item.flags.transientState || item.flags.negativeResult).toBe(false);
          const index = view.items.indexOf(item);
          const calls = view.items.slice(index + 1).filter((c) => c.kind === 'tool-call');
          expect(
            calls.some((c) =>
              effectsOf(view.items, c).some((e) => e.source === item.source?.identity && e.outcome === 'succeeded'),
            ),
            id,
          ).toBe(true);
        }
      }),
      RUNS,
    );
  });
});
