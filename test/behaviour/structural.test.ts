// The structural reader on the canonical fixtures: raw never fails a probe; removing the item that holds a
// required fact (with no way to recover it) fails that probe, and the paired difference charges it to pruning.
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { fullContext, pointBehaviour, poolBehaviour, prunedContext } from '../../src/behaviour/measure.js';
import type { ContextEntry, Reader } from '../../src/behaviour/reader.js';
import { structuralReader } from '../../src/behaviour/structural.js';
import { Behaviour } from '../../src/artifacts/schema.js';
import { runStudy } from '../../src/engine/run.js';
import type { LoadedFixture } from '../../src/fixture/load.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { buildView } from '../../src/fixture/view.js';
import { obligationJudge } from '../../src/oracle/obligations.js';
import { getCondition } from '../../src/policy/registry.js';
import { scorePoint, type AppliedRemoval } from '../../src/score/score.js';

const tokens = tokenCounter();
let fixtures: LoadedFixture[] = [];

beforeAll(() => {
  fixtures = loadFixtures('fixtures/canonical', process.cwd());
});

describe('structural reader on the canonical fixtures', () => {
  it('raw answers every probe from the full and the pruned context alike, so nothing is charged to pruning', () => {
    const [run] = runStudy({
      conditions: [getCondition('raw')!],
      fixtures,
      timing: { kind: 'immediate' },
      placeholders: 'marker',
      tokens,
    });
    const b = run!.summary.behaviour;
    const probes = fixtures.reduce(
      (n, f) => n + f.fixture.prunePoints.reduce((m, p) => m + p.visible.obligations.length + p.downstream.length, 0),
      0,
    );
    expect(b.reader).toBe('structural');
    expect(b.probes).toBe(probes);
    expect(b.full.taskSuccess).toEqual({ numerator: probes, denominator: probes, value: 1 });
    expect(b.pruned.taskSuccess).toEqual(b.full.taskSuccess);
    expect(b.paired.causedFailures.numerator).toBe(0);
    expect(b.pruned.unsupportedClaims.numerator).toBe(0);
    expect(b.pruned.recoveryFailures.denominator).toBe(0);
    expect(b.usage).toBeNull();
  });

  it('removing the only item that holds a required string fails that probe and only that one', () => {
    let checked = 0;
    for (const loaded of fixtures) {
      for (const point of loaded.fixture.prunePoints) {
        const view = buildView(loaded.fixture, point.id, tokens);
        const obligations = [...point.visible.obligations, ...point.downstream];
        for (const o of obligations) {
          const s = o.needs.strings[0];
          if (s === undefined) continue;
          const holders = view.items.filter((i) => i.content.includes(s));
          // Only a single holder with no pointer or source to recover from makes a clean case.
          if (holders.length !== 1 || holders[0]!.flags.durablePointer || holders[0]!.source) continue;
          const removals: AppliedRemoval[] = [{ itemId: holders[0]!.id, leftBehind: '', leftBehindTokens: 0 }];
          const oracle = loaded.oracle!.points.find((p) => p.prunePoint === point.id)!;
          const score = scorePoint({
            condition: 't',
            fixture: loaded.fixture,
            point,
            oracle,
            view,
            removals,
            overheadTokens: 0,
            decisions: view.items.map((i) => ({
              itemId: i.id,
              decision: i.id === holders[0]!.id ? ('PRUNE' as const) : ('KEEP' as const),
            })),
          });
          const b = pointBehaviour(structuralReader(), {
            fixture: loaded.fixture,
            point,
            view,
            removals,
            outcomes: score.measures.obligationOutcomes,
          });
          expect(b.full.taskSuccess.numerator).toBe(obligations.length);
          // The probe in question fails; any other probe fails only if it needed the same item.
          // Whether a fact is still in context is the obligation judge's call (the one scoring uses), recovery aside.
          const judge = obligationJudge({ fixture: loaded.fixture, point, view, removals });
          const hurt = obligations.filter((x) => judge.judge(x, 'downstream').how !== 'present').length;
          expect(hurt).toBeGreaterThanOrEqual(1);
          expect(b.pruned.taskSuccess.numerator).toBe(obligations.length - hurt);
          expect(b.paired.causedFailures).toMatchObject({ numerator: hurt, denominator: obligations.length });
          expect(b.pruned.recoveryFailures).toMatchObject({ numerator: hurt, denominator: hurt });
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('a fact recovered by re-read or pointer counts as answered, and as a needed recovery that did not fail', () => {
    let seen = 0;
    for (const loaded of fixtures)
      for (const point of loaded.fixture.prunePoints) {
        const view = buildView(loaded.fixture, point.id, tokens);
        for (const o of [...point.visible.obligations, ...point.downstream].filter(
          (x) => (x.rereadSatisfies || x.pointerSatisfies) && x.needs.strings.length > 0,
        )) {
          const holders = view.items.filter((i) => o.needs.strings.some((s) => i.content.includes(s)));
          const removals: AppliedRemoval[] = holders.map((h) => ({
            itemId: h.id,
            leftBehind: '',
            leftBehindTokens: 0,
          }));
          const oracle = loaded.oracle!.points.find((p) => p.prunePoint === point.id)!;
          const score = scorePoint({
            condition: 't',
            fixture: loaded.fixture,
            point,
            oracle,
            view,
            removals,
            overheadTokens: 0,
            decisions: [],
          });
          const outcome = score.measures.obligationOutcomes.find((x) => x.id === o.id)!;
          if (outcome.how !== 're-read' && outcome.how !== 'pointer') continue;
          const b = pointBehaviour(structuralReader(), {
            fixture: loaded.fixture,
            point: { ...point, visible: { ...point.visible, obligations: [] }, downstream: [o] },
            view,
            removals,
            outcomes: [outcome],
          });
          expect(b.pruned.taskSuccess).toMatchObject({ numerator: 1, denominator: 1 });
          expect(b.pruned.recoveryFailures).toMatchObject({ numerator: 0, denominator: 1 });
          seen += 1;
        }
      }
    expect(seen).toBeGreaterThan(0);
  });

  it('pooling sums numerators and denominators over prune points', () => {
    const [run] = runStudy({
      conditions: [getCondition('ladder-0-4')!],
      fixtures,
      timing: { kind: 'immediate' },
      placeholders: 'marker',
      tokens,
    });
    const pooled = poolBehaviour(
      run!.points.map((p) => p.behaviour),
      structuralReader(),
    );
    expect(pooled).toEqual(run!.summary.behaviour);
    const failed = run!.points.reduce((n, p) => n + p.behaviour.paired.causedFailures.numerator, 0);
    expect(run!.summary.behaviour.paired.causedFailures.numerator).toBe(failed);
    // ladder-0-4 is upper-risk: it loses obligations, and the structural reader sees exactly those losses.
    expect(run!.summary.behaviour.pruned.taskSuccess.numerator).toBe(run!.summary.obligations.preserved);
  });

  it("a model reader's block says its recovery failures are judged structurally; the structural reader's carries no such label", () => {
    const loaded = fixtures[0]!;
    const point = loaded.fixture.prunePoints[0]!;
    const view = buildView(loaded.fixture, point.id, tokens);
    // A stand-in model reader: answers like the structural one, labelled as a model (no network).
    const model: Reader = { ...structuralReader(), label: 'anthropic/claude-test' };
    const input = { fixture: loaded.fixture, point, view, removals: [], outcomes: [] };
    const byModel = pointBehaviour(model, input);
    expect(byModel.recoveryJudgedBy).toBe('structural');
    expect(poolBehaviour([byModel], model).recoveryJudgedBy).toBe('structural');
    expect(Behaviour.parse(byModel)).toEqual(byModel);
    const structural = pointBehaviour(structuralReader(), input);
    expect('recoveryJudgedBy' in structural).toBe(false);
    expect('recoveryJudgedBy' in poolBehaviour([structural], structuralReader())).toBe(false);
  });
  it('a reader that reads the context is shown the full context on the full side and the pruned one on the other', () => {
    const loaded = fixtures[0]!;
    const point = loaded.fixture.prunePoints[0]!;
    const view = buildView(loaded.fixture, point.id, tokens);
    const removals: AppliedRemoval[] = view.items
      .slice(0, 3)
      .map((item, k) => ({ itemId: item.id, leftBehind: k === 1 ? '' : `[gone ${item.id}]`, leftBehindTokens: 1 }));
    const seen: { side: string; context: readonly ContextEntry[] }[] = [];
    const reading: Reader = {
      ...structuralReader(),
      label: 'test/reading',
      judge(input) {
        seen.push({ side: input.side, context: input.context });
        return structuralReader().judge(input);
      },
    };
    pointBehaviour(reading, { fixture: loaded.fixture, point, view, removals, outcomes: [] });
    const probes = point.visible.obligations.length + point.downstream.length;
    expect(probes).toBeGreaterThan(0);
    expect(seen.filter((s) => s.side === 'full').map((s) => s.context)).toEqual(Array(probes).fill(fullContext(view)));
    const pruned = prunedContext(view, removals);
    expect(pruned.length).toBe(view.items.length - 1);
    expect(seen.filter((s) => s.side === 'pruned').map((s) => s.context)).toEqual(Array(probes).fill(pruned));
  });
});
