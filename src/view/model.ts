// The page model: one fixture's context at each prune point, as each condition left it. Pure: the same records,
// fixture and oracle give the same model, and every count a page shows is a count of decision records.
import type { DecisionRecord, ObligationOutcome, PointMeasures } from '../artifacts/schema.js';
import { input } from '../errors.js';
import type { Fixture, Obligation, Oracle } from '../fixture/schema.js';
import { namedItems, namedStrings } from '../fixture/needs.js';
import { oracleNotes, type OracleNote } from './reveal.js';
import { countStates, stateOf, type ItemState, type StateCounts } from './states.js';

/**
 * Characters of an item's payload a page shows; the rest is counted, not shipped, so a 14,000-token log does not
 * make every page of its fixture megabytes long.
 */
export const CONTENT_CHARS = 2000;

export interface ItemModel {
  readonly id: string;
  readonly turn: number;
  readonly origin: string;
  readonly kind: string;
  readonly tool: string | null;
  readonly status: 'ok' | 'error' | null;
  /** The payload as the model saw it, cut at CONTENT_CHARS. */
  readonly content: string;
  /** Characters cut from the payload for the page (0 when whole). */
  readonly cutChars: number;
}

export interface DecisionModel {
  readonly itemId: string;
  readonly state: ItemState;
  readonly decision: DecisionRecord['decision'];
  readonly rule: string;
  readonly rung: number | null;
  readonly reason: string;
  readonly timing: string;
  /** The text left in context in the item's place (marker and residue), or null. */
  readonly placeholder: string | null;
  readonly residue: readonly string[] | null;
  readonly tokens: DecisionRecord['tokens'];
  /** Attached after the decision, hidden until the reader reveals it. */
  readonly outcome: 'true-prune' | 'false-prune' | null;
}

/** What a page says of a column whose decision records the run did not log, and how to log them. */
export const UNLOGGED_NOTE =
  "Per-decision records were not logged for this fixture (a default run logs the generated corpus's measures only); the measures here are from its points. To log them: npm run experiment -- --decision-log all";

export interface ColumnModel {
  /** In trajectory order, one per item in context at the point; none when the records were not logged. */
  readonly decisions: readonly DecisionModel[];
  /** Items per state, counted from the records; null when they were not logged. */
  readonly counts: StateCounts | null;
  /**
   * Present only for a column without logged records: the note a page shows, and the decision counts from the
   * point's measures (null when the point has none).
   */
  readonly unlogged?: { readonly note: string; readonly decisions: PointMeasures['decisions'] | null };
  readonly tokens: PointMeasures['tokens'] | null;
  /** How each obligation fared under this condition (visible and downstream); hidden until revealed. */
  readonly obligations: readonly ObligationOutcome[];
}

export interface ObligationModel {
  readonly id: string;
  readonly description: string;
  readonly neededAtTurn: number;
  readonly items: readonly string[];
  readonly strings: readonly string[];
}

export interface PointModel {
  readonly id: string;
  readonly turn: number;
  readonly subgoal: string;
  readonly budgetTokens: number;
  readonly taskBoundary: boolean;
  /** Items in context at the point, in trajectory order. */
  readonly itemIds: readonly string[];
  readonly visible: {
    readonly obligations: readonly ObligationModel[];
    readonly pendingSteps: readonly { id: string; description: string; references: readonly string[] }[];
    readonly workUnits: readonly { id: string; description: string; state: string; traceItems: readonly string[] }[];
    readonly pinned: readonly string[];
    readonly protectedTools: readonly string[];
  };
  /** What no policy saw: the downstream obligations and the oracle's verdicts; null for an unscored trace. */
  readonly hidden: {
    readonly rationale: string;
    readonly downstream: readonly ObligationModel[];
    readonly items: Readonly<Record<string, OracleNote>>;
  } | null;
}

export interface ConditionModel {
  readonly name: string;
  readonly layer: string;
  readonly rung: number | null;
  readonly columns: Readonly<Record<string, ColumnModel>>;
}

export interface FixturePage {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly items: readonly ItemModel[];
  readonly points: readonly PointModel[];
  readonly conditions: readonly ConditionModel[];
}

/** A condition's logs for one fixture, as read (and verified) from its results folder. */
export interface ConditionLogs {
  readonly name: string;
  readonly layer: string;
  readonly rung: number | null;
  readonly records: readonly DecisionRecord[];
  readonly points: readonly PointMeasures[];
  /** False when the run logged this fixture's points but not its decision records. */
  readonly logged: boolean;
  /** The file the records came from, for messages. */
  readonly file: string;
}

function obligationModel(o: Obligation): ObligationModel {
  return {
    id: o.id,
    description: o.description,
    neededAtTurn: o.neededAtTurn,
    items: namedItems(o.needs),
    strings: namedStrings(o.needs),
  };
}

function itemModel(item: Fixture['items'][number]): ItemModel {
  return {
    id: item.id,
    turn: item.turn,
    origin: item.origin,
    kind: item.kind,
    tool: item.tool?.name ?? null,
    status: item.status?.state ?? null,
    content: item.content.slice(0, CONTENT_CHARS),
    cutChars: Math.max(0, item.content.length - CONTENT_CHARS),
  };
}

export function decisionModel(r: DecisionRecord): DecisionModel {
  return {
    itemId: r.itemId,
    state: stateOf(r),
    decision: r.decision,
    rule: r.rule,
    rung: r.rung,
    reason: r.reason,
    timing: r.timing.reason,
    placeholder: r.placeholder,
    residue: r.residue,
    tokens: r.tokens,
    outcome: r.oracle.outcome,
  };
}

/**
 * One condition's column at one point: a decision for every item in context and none for any other item, else the
 * logs do not describe this fixture and the page would show a context that never was.
 */
export function columnModel(
  itemIds: readonly string[],
  records: readonly DecisionRecord[],
  measures: PointMeasures | undefined,
  where: string,
): ColumnModel {
  const byItem = new Map<string, DecisionRecord>();
  for (const r of records) {
    if (byItem.has(r.itemId)) throw input('PL_RESULTS_INCONSISTENT', where, `two decisions for item ${r.itemId}`);
    byItem.set(r.itemId, r);
  }
  const missing = itemIds.filter((id) => !byItem.has(id));
  const extra = [...byItem.keys()].filter((id) => !itemIds.includes(id));
  if (missing.length || extra.length)
    throw input(
      'PL_RESULTS_INCONSISTENT',
      where,
      `the decisions do not match the items in context${missing.length ? `; no decision for ${missing.join(', ')}` : ''}${extra.length ? `; decisions for items not in context: ${extra.join(', ')}` : ''}`,
    );
  const decisions = itemIds.map((id) => decisionModel(byItem.get(id)!));
  return {
    decisions,
    counts: countStates(decisions.map((d) => d.state)),
    tokens: measures?.tokens ?? null,
    obligations: measures?.obligationOutcomes ?? [],
  };
}

/** A column from a point's measures alone: its tokens, obligations and decision counts, and no item's decision. */
export function unloggedColumn(measures: PointMeasures | undefined): ColumnModel {
  return {
    decisions: [],
    counts: null,
    tokens: measures?.tokens ?? null,
    obligations: measures?.obligationOutcomes ?? [],
    unlogged: { note: UNLOGGED_NOTE, decisions: measures ? { ...measures.decisions } : null },
  };
}

export function fixturePage(fixture: Fixture, oracle: Oracle | null, logs: readonly ConditionLogs[]): FixturePage {
  const points: PointModel[] = fixture.prunePoints.map((p) => {
    const inContext = fixture.items.filter((i) => i.turn <= p.turn);
    const oraclePoint = oracle?.points.find((o) => o.prunePoint === p.id);
    return {
      id: p.id,
      turn: p.turn,
      subgoal: p.subgoal,
      budgetTokens: p.budgetTokens,
      taskBoundary: p.taskBoundary,
      itemIds: inContext.map((i) => i.id),
      visible: {
        obligations: p.visible.obligations.map(obligationModel),
        pendingSteps: p.visible.pendingSteps,
        workUnits: p.visible.workUnits.map((u) => ({
          id: u.id,
          description: u.description,
          state: u.state,
          traceItems: u.traceItems,
        })),
        pinned: p.visible.pinned,
        protectedTools: p.visible.protectedTools,
      },
      hidden: oraclePoint
        ? {
            rationale: oraclePoint.rationale,
            downstream: p.downstream.map(obligationModel),
            items: Object.fromEntries(oracleNotes(p, oraclePoint, inContext)),
          }
        : null,
    };
  });
  const conditions = logs.map((log) => ({
    name: log.name,
    layer: log.layer,
    rung: log.rung,
    columns: Object.fromEntries(
      points.map((p) => {
        const measures = log.points.find((m) => m.prunePoint === p.id);
        return [
          p.id,
          log.logged
            ? columnModel(
                p.itemIds,
                log.records.filter((r) => r.prunePoint === p.id),
                measures,
                `${log.file} (fixture ${fixture.id}, prune point ${p.id})`,
              )
            : unloggedColumn(measures),
        ];
      }),
    ),
  }));
  return {
    id: fixture.id,
    title: fixture.title,
    description: fixture.description,
    // Items after the last prune point are in no context the page can show.
    items: fixture.items.filter((i) => points.some((p) => i.turn <= p.turn)).map(itemModel),
    points,
    conditions,
  };
}
