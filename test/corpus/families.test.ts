// Each family's oracle says what its construction implies, checked against the fixture's own content (sources,
// flags, strings, obligations), never against ids or values copied from generated output.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/fixture/canonical.js';
import { reread, resolvePointer } from '../../src/fixture/world.js';
import type { WorkUnit } from '../../src/fixture/schema.js';
import { casesOf, standing, targetPoint, type Case } from './helpers.js';

/** Whether a call records an effect on the source, bare or with a per-effect outcome (then it must be succeeded). */
function changes(
  item: { effects?: readonly (string | { source: string; outcome: string })[] },
  identity: string,
): boolean {
  return (item.effects ?? []).some((e) =>
    typeof e === 'string' ? e === identity : e.source === identity && e.outcome === 'succeeded',
  );
}

const results = (c: Case) => c.items.filter((it) => it.kind === 'tool-result');
/** What the episode's own later steps need at its prune point (other episodes share the point). */
const neededStrings = (c: Case) =>
  targetPoint(c)
    .point.downstream.filter((o) => o.id.startsWith(`ob-${c.prefix}-`))
    .flatMap((o) => o.needs.strings);
const holdsNeed = (c: Case, content: string) => neededStrings(c).some((s) => content.includes(s));

const recordOf = (unit: WorkUnit): string => {
  const c = unit.consequence;
  if (!c || !('itemId' in c)) throw new Error(`${unit.id} has no consequence record in context`);
  return c.itemId;
};

describe('immutable-duplicate-read', () => {
  for (const variant of ['identical-copies', 'numbered-and-plain']) {
    it(`${variant}: reads of one pinned immutable state form one redundant group keeping one`, () => {
      for (const c of casesOf('immutable-duplicate-read', variant)) {
        const { oracle } = targetPoint(c);
        const reads = results(c);
        expect(reads.length).toBeGreaterThanOrEqual(2);
        expect(new Set(reads.map((r) => canonicalJson(r.source))).size).toBe(1);
        expect(reads[0]!.source!.mutable).toBe(false);
        const group = oracle.redundantGroups.find((g) => g.items.includes(reads[0]!.id))!;
        expect(group.items.sort()).toEqual(reads.map((r) => r.id).sort());
        expect(group.keep).toBe(1);
        if (variant === 'numbered-and-plain') expect(reads[0]!.content).not.toBe(reads[1]!.content);
      }
    });
  }
});

describe('mutable-reread', () => {
  it('unchanged: the earlier copy is in a redundant group with the later one', () => {
    for (const c of casesOf('mutable-reread', 'unchanged')) {
      const [first, second] = results(c);
      expect(first!.content).toBe(second!.content);
      expect(standing(targetPoint(c).oracle, first!.id)).toBe('redundant-copy');
    }
  });
  it('changed externally: the earlier copy holds the old value a later step needs and is not removable', () => {
    for (const c of casesOf('mutable-reread', 'changed-externally')) {
      const [first, second] = results(c);
      expect(first!.content).not.toBe(second!.content);
      expect(c.items.some((it) => it.kind === 'tool-call' && changes(it, first!.source!.identity))).toBe(false);
      const history = c.fixture.world.sources.find((s) => s.identity === first!.source!.identity)!.history;
      expect(history.length).toBe(2);
      expect(holdsNeed(c, first!.content)).toBe(true);
      expect(standing(targetPoint(c).oracle, first!.id)).toBe('necessary');
    }
  });
  it('changed by the agent: the earlier read may go; the edit call and the later read both hold the new value and form a redundant group', () => {
    for (const c of casesOf('mutable-reread', 'changed-by-agent')) {
      const [first, second] = results(c).filter((r) => r.tool!.name === 'read_file');
      expect(first!.content).not.toBe(second!.content);
      const edit = c.items.find((it) => it.kind === 'tool-call' && changes(it, first!.source!.identity))!;
      expect(edit).toBeDefined();
      const { oracle } = targetPoint(c);
      expect(standing(oracle, first!.id)).toBe('removable');
      expect(oracle.redundantGroups).toContainEqual({ items: [edit.id, second!.id], keep: 1 });
    }
  });
});

describe('failed-call-bulky-input', () => {
  it('input explains: the call holding the broken statement is necessary, the error only for its residue', () => {
    for (const c of casesOf('failed-call-bulky-input', 'input-explains')) {
      const call = c.items.find((it) => it.kind === 'tool-call')!;
      const result = c.items.find((it) => it.kind === 'tool-result')!;
      expect(result.status?.state).toBe('error');
      expect(
        neededStrings(c).some(
          (s) =>
            JSON.stringify(call.tool!.arguments).includes(JSON.stringify(s).slice(1, -1)) &&
            !result.content.includes(s),
        ),
      ).toBe(true);
      const { oracle } = targetPoint(c);
      expect(standing(oracle, call.id)).toBe('necessary');
      expect(oracle.partial.find((p) => p.itemId === result.id)!.residue).toEqual(expect.arrayContaining(['message']));
    }
  });
  it('input irrelevant: the failed call may go and the error keeps its residue', () => {
    for (const c of casesOf('failed-call-bulky-input', 'input-irrelevant')) {
      const call = c.items.find((it) => it.kind === 'tool-call')!;
      const result = c.items.find((it) => it.kind === 'tool-result')!;
      expect(holdsNeed(c, call.content)).toBe(false);
      expect(
        result.status?.state === 'error' &&
          neededStrings(c).every((s) => result.status!.state === 'error' && result.status!.message.includes(s)),
      ).toBe(true);
      expect(standing(targetPoint(c).oracle, call.id)).toBe('removable');
      expect(standing(targetPoint(c).oracle, result.id)).toBe('partial');
    }
  });
});

describe('superseded-run', () => {
  it('checked rerun: the failing run is removable once the rerun after the fix covers its tests', () => {
    for (const c of casesOf('superseded-run', 'checked-rerun')) {
      const [older, newer] = results(c).filter((r) => r.tool!.name === 'run_tests');
      expect(older!.status?.state).toBe('error');
      expect(canonicalJson(older!.tool!.arguments)).toBe(canonicalJson(newer!.tool!.arguments));
      expect(older!.covers!.every((k) => newer!.covers!.includes(k))).toBe(true);
      expect(
        c.items.some((it) => it.turn > older!.turn && it.turn < newer!.turn && changes(it, older!.source!.identity)),
      ).toBe(true);
      expect(standing(targetPoint(c).oracle, older!.id)).toBe('removable');
      expect(standing(targetPoint(c).oracle, newer!.id)).toBe('necessary');
    }
  });
  it('rerun after the prune point: the failing run is still the current state and necessary', () => {
    for (const c of casesOf('superseded-run', 'rerun-after-point')) {
      const { point, oracle } = targetPoint(c);
      const runs = results(c).filter((r) => r.tool!.name === 'run_tests');
      expect(runs.filter((r) => r.turn <= point.turn)).toHaveLength(1);
      expect(standing(oracle, runs[0]!.id)).toBe('necessary');
    }
  });
  it('flaky rerun: with no transition between the runs, the failing run is needed evidence', () => {
    for (const c of casesOf('superseded-run', 'flaky-rerun')) {
      const [older, newer] = results(c);
      expect(
        c.fixture.items.some(
          (it) => it.turn > older!.turn && it.turn < newer!.turn && changes(it, older!.source!.identity),
        ),
      ).toBe(false);
      expect(standing(targetPoint(c).oracle, older!.id)).toBe('necessary');
    }
  });
});

describe('completed-subtask', () => {
  it('no later dependency: every trace item of the closed unit is removable, the consequence record is not', () => {
    for (const c of casesOf('completed-subtask', 'no-later-dependency')) {
      const { point, oracle } = targetPoint(c);
      const unit = point.visible.workUnits.find((w) => w.id === `wu-${c.prefix}`)!;
      expect(unit.state).toBe('closed');
      for (const id of unit.traceItems) expect(standing(oracle, id)).toBe('removable');
      expect(standing(oracle, recordOf(unit))).toBe('necessary');
    }
  });
  it('later dependency: a trace item holding what a later step needs (and the summary lacks) is not removable', () => {
    for (const c of casesOf('completed-subtask', 'later-dependency')) {
      const { point, oracle } = targetPoint(c);
      const unit = point.visible.workUnits.find((w) => w.id === `wu-${c.prefix}`)!;
      const summary = c.fixture.items.find((it) => it.id === recordOf(unit))!;
      const needed = unit.traceItems.filter((id) => {
        const item = c.fixture.items.find((it) => it.id === id)!;
        return neededStrings(c).some((s) => item.content.includes(s) && !summary.content.includes(s));
      });
      expect(needed.length).toBeGreaterThan(0);
      for (const id of needed) expect(standing(oracle, id)).toBe('necessary');
    }
  });
});

describe('rejected-hypothesis', () => {
  it('only negative evidence: the rejected hypothesis holding the measurement is necessary, the others removable', () => {
    for (const c of casesOf('rejected-hypothesis', 'only-negative-evidence')) {
      const { oracle } = targetPoint(c);
      const hyps = c.items.filter((it) => it.kind === 'hypothesis');
      const holder = hyps.filter((h) => holdsNeed(c, h.content));
      expect(holder).toHaveLength(1);
      expect(holder[0]!.verdict).toBe('rejected');
      expect(holder[0]!.flags.negativeResult).toBe(true);
      expect(
        c.fixture.items.filter(
          (it) =>
            it.id !== holder[0]!.id &&
            holdsNeed(c, it.content) &&
            it.turn <= holder[0]!.turn + 1 &&
            it.kind !== 'reasoning',
        ),
      ).toHaveLength(0);
      expect(standing(oracle, holder[0]!.id)).toBe('necessary');
      for (const h of hyps.filter((x) => x !== holder[0])) expect(standing(oracle, h.id)).toBe('removable');
    }
  });
  it('evidence recorded elsewhere: the pool hypothesis and the notes call hold the measurement as a redundant group; the other hypotheses are removable', () => {
    for (const c of casesOf('rejected-hypothesis', 'evidence-recorded-elsewhere')) {
      const { oracle } = targetPoint(c);
      const notes = c.items.find((it) => it.tool?.name === 'append_notes' && it.kind === 'tool-call')!;
      const pool = c.items.find((it) => it.kind === 'hypothesis' && it.flags.negativeResult)!;
      expect(oracle.redundantGroups).toContainEqual({ items: [pool.id, notes.id], keep: 1 });
      for (const h of c.items.filter((it) => it.kind === 'hypothesis' && it.id !== pool.id))
        expect(standing(oracle, h.id)).toBe('removable');
    }
  });
});

describe('one-time-secret', () => {
  it('needed later: the issued secret a later call uses verbatim is necessary', () => {
    for (const variant of ['needed-later', 'needed-later-pinned']) {
      for (const c of casesOf('one-time-secret', variant)) {
        const issued = c.items.find((it) => it.flags.oneTimeSecret)!;
        const later = c.items.find(
          (it) =>
            it.kind === 'tool-call' &&
            it.turn > c.placement.point &&
            Object.values(it.tool!.arguments).some(
              (v) => typeof v === 'string' && issued.content.includes(v) && v.length > 8,
            ),
        );
        expect(later).toBeDefined();
        expect(standing(targetPoint(c).oracle, issued.id)).toBe('necessary');
        if (variant === 'needed-later-pinned') expect(targetPoint(c).point.visible.pinned).toContain(issued.id);
      }
    }
  });
  it('already used before the prune point: the secret is removable', () => {
    for (const c of casesOf('one-time-secret', 'already-used')) {
      const issued = c.items.find((it) => it.flags.oneTimeSecret)!;
      expect(
        c.items.some((it) => it.kind === 'tool-call' && it.turn <= c.placement.point && it.turn > issued.turn),
      ).toBe(true);
      expect(standing(targetPoint(c).oracle, issued.id)).toBe('removable');
    }
  });
});

describe('stated-once-constraint', () => {
  for (const variant of ['downstream-only', 'visible-obligation']) {
    it(`${variant}: the sole record of the user's constraint is necessary while a step still has to honour it`, () => {
      for (const c of casesOf('stated-once-constraint', variant)) {
        const rule = c.items.find((it) => it.kind === 'constraint')!;
        expect(rule.flags.soleConstraintRecord).toBe(true);
        const { point, oracle } = targetPoint(c);
        const where = variant === 'visible-obligation' ? point.visible.obligations : point.downstream;
        expect(
          where.some(
            (o) => o.needs.strings.every((s) => rule.content.includes(s)) && o.needs.itemIds.includes(rule.id),
          ),
        ).toBe(true);
        expect(standing(oracle, rule.id)).toBe('necessary');
      }
    });
  }
});

describe('transient-state', () => {
  it('reading stale: the older reading is removable, the newer one necessary', () => {
    for (const c of casesOf('transient-state', 'reading-stale')) {
      const [older, newer] = results(c);
      expect(older!.flags.transientState && newer!.flags.transientState).toBe(true);
      expect(older!.content).not.toBe(newer!.content);
      expect(standing(targetPoint(c).oracle, older!.id)).toBe('removable');
      expect(standing(targetPoint(c).oracle, newer!.id)).toBe('necessary');
    }
  });
  it('reading needed: the only reading is necessary', () => {
    for (const c of casesOf('transient-state', 'reading-needed')) {
      const [only] = results(c);
      expect(holdsNeed(c, only!.content)).toBe(true);
      expect(standing(targetPoint(c).oracle, only!.id)).toBe('necessary');
    }
  });
});

describe('dormant-dependency', () => {
  for (const variant of ['unmarked', 'pending-step']) {
    it(`${variant}: the closed workaround's trace is necessary until the dependency reopens`, () => {
      for (const c of casesOf('dormant-dependency', variant)) {
        const { point, oracle } = targetPoint(c);
        const unit = point.visible.workUnits.find((w) => w.id === `wu-${c.prefix}`)!;
        expect(unit.state).toBe('closed');
        const trace = results(c).find((r) => r.tool!.name === 'read_logs')!;
        expect(unit.traceItems).toContain(trace.id);
        expect(holdsNeed(c, trace.content)).toBe(true);
        expect(standing(oracle, trace.id)).toBe('necessary');
        expect(c.placement.needAt).toBeGreaterThan(point.turn);
        if (variant === 'pending-step')
          expect(point.visible.pendingSteps.some((s) => s.references.includes(trace.id))).toBe(true);
        const after = c.composed.oracle.points.find(
          (p) => c.fixture.prunePoints.find((q) => q.id === p.prunePoint)!.turn > c.placement.needAt,
        );
        if (after) expect(standing(after, trace.id)).toBe('removable');
      }
    });
  }
});

describe('large-reconstructible-read', () => {
  it('pointer and re-read: the large read is removable and both recovery paths return what the later step needs', () => {
    for (const c of casesOf('large-reconstructible-read', 'pointer-and-reread')) {
      const big = results(c)[0]!;
      const { point, oracle } = targetPoint(c);
      const o = point.downstream.find((d) => d.needs.itemIds.includes(big.id))!;
      expect(o.pointerSatisfies && o.rereadSatisfies).toBe(true);
      const pointed = resolvePointer(c.fixture.world, big.flags.durablePointer!, o.neededAtTurn);
      expect(pointed.resolved && o.needs.strings.every((s) => pointed.content.includes(s))).toBe(true);
      expect(
        o.needs.strings.every((s) => (reread(c.fixture.world, big.source!.identity, o.neededAtTurn) ?? '').includes(s)),
      ).toBe(true);
      expect(standing(oracle, big.id)).toBe('removable');
    }
  });
  it('not reconstructible: the live read whose source changed is necessary', () => {
    for (const c of casesOf('large-reconstructible-read', 'not-reconstructible')) {
      const big = results(c)[0]!;
      const { point, oracle } = targetPoint(c);
      const o = point.downstream.find((d) => d.needs.itemIds.includes(big.id))!;
      expect(
        o.needs.strings.some((s) => !(reread(c.fixture.world, big.source!.identity, o.neededAtTurn) ?? '').includes(s)),
      ).toBe(true);
      expect(big.flags.durablePointer).toBeUndefined();
      expect(standing(oracle, big.id)).toBe('necessary');
    }
  });
});
