// Per-prune-point measures: pruning quality against the oracle, obligation preservation (judged in
// ../oracle/obligations.ts, recovery tested against the world), re-fetch alerts and token accounting. Counts are
// kept so aggregation can pool them.
import type { Decision, DecisionCounts, PointMeasures, Tokens } from '../artifacts/schema.js';
import { canonicalJson } from '../fixture/canonical.js';
import type { Fixture, OraclePoint, PrunePoint, ResidueField } from '../fixture/schema.js';
import type { PolicyView } from '../fixture/view.js';
import { oracleJudge, type Outcome, type Verdict } from '../oracle/judge.js';
import { obligationsAt } from '../oracle/obligations.js';
import { classify } from '../policy/regenerability.js';
import { ratio, unscored } from './ratio.js';

export interface AppliedRemoval {
  readonly itemId: string;
  readonly residue?: readonly ResidueField[];
  /** What stays in context in the item's place (placeholder, residue, or nothing). */
  readonly leftBehind: string;
  readonly leftBehindTokens: number;
}

export interface PointInput {
  readonly condition: string;
  readonly fixture: Fixture;
  readonly point: PrunePoint;
  /** null for an imported trace: decisions and tokens are measured, oracle measures are unscored. */
  readonly oracle: OraclePoint | null;
  readonly view: PolicyView;
  readonly decisions: readonly { readonly itemId: string; readonly decision: Decision }[];
  readonly removals: readonly AppliedRemoval[];
  readonly overheadTokens: number;
}

export interface PointScore {
  /** Everything but behaviour, which the engine adds from the behaviour layer. */
  readonly measures: Omit<PointMeasures, 'behaviour'>;
  readonly verdicts: ReadonlyMap<string, Verdict | 'unscored'>;
  readonly outcomes: ReadonlyMap<string, Outcome>;
}

export function scorePoint(input: PointInput): PointScore {
  const { view, removals } = input;
  const judge = input.oracle ? oracleJudge(input.oracle) : null;
  const outcomes = judge ? judge.judge(removals) : new Map<string, Outcome>();
  const verdicts = new Map(view.items.map((item): [string, Verdict | 'unscored'] => [item.id, judge ? judge.verdict(item.id) : 'unscored']));
  const truePrunes = [...outcomes.values()].filter((o) => o === 'true-prune').length;
  const applied = removals.length;
  const counts = countDecisions(input.decisions);
  const obligationOutcomes = obligationsAt(input);
  const alerts = refetchAlerts(input);
  return {
    verdicts,
    outcomes,
    measures: {
      fixture: input.fixture.id,
      prunePoint: input.point.id,
      condition: input.condition,
      decisions: counts,
      precision: judge ? ratio(truePrunes, applied) : unscored(applied),
      falsePruneRate: judge ? ratio(applied - truePrunes, applied) : unscored(applied),
      coverage: judge ? ratio(truePrunes, judge.eligibleCount) : unscored(null),
      abstentionRate: ratio(counts.abstain, counts.total),
      obligations: { preserved: obligationOutcomes.filter((o) => o.preserved).length, total: obligationOutcomes.length },
      refetchAlerts: alerts.length,
      tokens: tokensAt(view, removals, input.overheadTokens),
      obligationOutcomes,
      alerts,
    },
  };
}

export function countDecisions(decisions: readonly { readonly decision: Decision }[]): DecisionCounts {
  const n = (d: Decision): number => decisions.filter((x) => x.decision === d).length;
  return { total: decisions.length, keep: n('KEEP'), prune: n('PRUNE'), defer: n('DEFER'), abstain: n('ABSTAIN') };
}

function tokensAt(view: PolicyView, removals: readonly AppliedRemoval[], overhead: number): Tokens {
  const byId = new Map(view.items.map((i) => [i.id, i.tokens]));
  const removed = removals.reduce((s, r) => s + (byId.get(r.itemId) ?? 0), 0);
  const placeholder = removals.reduce((s, r) => s + r.leftBehindTokens, 0);
  return { raw: view.contextTokens, removed, placeholder, overhead, final: view.contextTokens - removed + placeholder };
}

/** A removed irreducible item, with no identical copy left, whose tool the trajectory invokes again later with the same arguments. */
function refetchAlerts(input: PointInput): { itemId: string; refetchedBy: string }[] {
  const future = input.fixture.items.filter((i) => i.turn > input.point.turn && i.tool);
  const removed = new Set(input.removals.map((r) => r.itemId));
  const surviving = new Set(input.view.items.filter((i) => !removed.has(i.id)).map((i) => i.content));
  const alerts: { itemId: string; refetchedBy: string }[] = [];
  for (const r of input.removals) {
    const item = input.view.items.find((i) => i.id === r.itemId);
    if (!item?.tool || classify(input.view, item).class !== 'irreducible') continue;
    // A byte-identical copy still in context means the later call is not re-fetching what the removal lost.
    if (surviving.has(item.content)) continue;
    const key = canonicalJson(item.tool.arguments);
    const again = future.find((f) => f.tool!.name === item.tool!.name && canonicalJson(f.tool!.arguments) === key);
    if (again) alerts.push({ itemId: item.id, refetchedBy: again.id });
  }
  return alerts;
}
