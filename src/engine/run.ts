// Runs every condition over every prune point of every fixture. Policies get a view and nothing else; the oracle
// joins only after the decisions exist, in the scoring step.
import type { PointEconomics } from '../economics/record.js';
import type {
  Decision,
  DecisionRecord,
  FixtureMeasures,
  Measures,
  PointMeasures,
  Summary,
} from '../artifacts/schema.js';
import { ARTIFACT_VERSION } from '../artifacts/schema.js';
import type { TokenCounter } from '../accounting/tokens.js';
import { failure } from '../errors.js';
import { byCodeUnit, versionLabel } from '../fixture/canonical.js';
import { deepFreeze } from '../fixture/freeze.js';
import type { LoadedFixture } from '../fixture/load.js';
import type { OraclePoint, PrunePoint } from '../fixture/schema.js';
import { buildView, counterpart, type PolicyView } from '../fixture/view.js';
import { classify, recoverabilityOf } from '../policy/regenerability.js';
import {
  EligibilitySchema,
  isPlainEligibility,
  type Condition,
  type ConditionInfo,
  type Eligibility,
} from '../policy/types.js';
import { pool, poolOracle } from '../score/ratio.js';
import { oncePerFixture, scorePoint, sumOnce, type AppliedRemoval } from '../score/score.js';
import { decideTiming, timingLabel, type Timing } from '../timing/timing.js';
import { poolBehaviour, pointBehaviour } from '../behaviour/measure.js';
import type { Reader } from '../behaviour/reader.js';
import { EMBEDDED_STUDY, type StudyModels } from '../behaviour/study.js';
import { chargeTokens, usageOf, type CallCharge } from '../providers/telemetry.js';
import { leftBehindCounted, type PlaceholderMode } from './placeholder.js';
import {
  followingRequests,
  previousRequestTime,
  rawEntries,
  sequenceEconomics,
  type PointRequestInput,
  type RequestEntry,
} from '../economics/sequence.js';
import { addEconomics, emptyEconomics } from '../economics/bill.js';
import type { EconomicsTotal } from '../economics/record.js';
import { cacheTelemetryOf } from '../providers/cache-telemetry.js';
import { modelledProfiles } from '../economics/caching.js';

export interface StudyOptions {
  readonly conditions: readonly Condition[];
  readonly fixtures: readonly LoadedFixture[];
  readonly timing: Timing;
  readonly placeholders: PlaceholderMode;
  readonly tokens: TokenCounter;
  /** Stamps every summary as exploratory: a run not checked against the preregistration. */
  readonly exploratory?: boolean;
  /** Stamps these conditions' summaries alone: the preregistration does not name them. */
  readonly exploratoryConditions?: readonly string[];
  /** Reader and model telemetry; the embedded (structural, no calls) default when absent. */
  readonly models?: StudyModels;
  /** Told after each fixture how many of them are done; the CLI draws progress from it (the engine prints nothing). */
  readonly onProgress?: (fixturesDone: number, fixturesTotal: number) => void;
  /**
   * Whether a fixture's decision records are built; every fixture's when absent. A fixture whose records are not
   * wanted hands the sink none, and skipping them is most of what an unlogged fixture saves (building, rendering,
   * compressing and hashing about two million records in the study); no measure is computed from them.
   */
  readonly decisionRecords?: (loaded: LoadedFixture) => boolean;
}

export interface ConditionRun {
  readonly info: ConditionInfo;
  readonly records: readonly DecisionRecord[];
  readonly points: readonly PointMeasures[];
  readonly summary: Summary;
}

/**
 * A prune point with what every condition reads of it alike, derived once per point instead of once per condition:
 * the engine's own bookkeeping, never handed to a condition (a condition gets the view alone, and the previous
 * request's time, which the view and the previous point's time already decide).
 */
interface PreparedPoint {
  readonly loaded: LoadedFixture;
  readonly point: PrunePoint;
  readonly oracle: OraclePoint | null;
  readonly view: PolicyView;
  readonly itemsById: ReadonlyMap<string, PolicyView['items'][number]>;
  /** When the runtime last sent a request before this point (previousRequestTime). */
  readonly lastRequest: string | null;
  /** The request the point would send with nothing removed; frozen, as every condition's sequence reads it. */
  readonly raw: readonly RequestEntry[];
  /** Model calls after this point and before the next (followingRequests). */
  readonly following: number;
}

/** One condition's records and measures on one fixture: the unit the engine hands to a writer. */
export interface FixtureChunk {
  readonly condition: ConditionInfo;
  readonly loaded: LoadedFixture;
  readonly records: readonly DecisionRecord[];
  readonly points: readonly PointMeasures[];
  /** The condition's totals on this fixture alone: what a thread hands back to be joined in fixture order. */
  readonly totals: Totals;
}

export interface StudySink {
  fixture(chunk: FixtureChunk): void;
}

/**
 * Runs fixture by fixture: each fixture's views are built once, every condition runs on them, and the records go to
 * the sink and are dropped, so memory holds one fixture's records at a time however large the corpus. Summaries are
 * accumulated per fixture; they come back in the conditions' order.
 */
export function streamStudy(
  options: StudyOptions,
  sink: StudySink,
  onTotals?: (totals: readonly RunTotals[]) => void,
): Summary[] {
  const models = options.models ?? EMBEDDED_STUDY;
  const totals = options.conditions.map(emptyTotals);
  let done = 0;
  for (const loaded of options.fixtures) {
    // Frozen inputs let every prune point's view share the fixture's items, and what is derived from them be
    // derived once (src/fixture/memo.ts); the CLI has frozen them already, other callers' are frozen here.
    deepFreeze(loaded);
    const points = loaded.fixture.prunePoints;
    const prepared: PreparedPoint[] = points.map((point, k) => {
      const view = buildView(loaded.fixture, point.id, options.tokens);
      return {
        loaded,
        point,
        oracle: loaded.oracle ? loaded.oracle.points.find((o) => o.prunePoint === point.id)! : null,
        view,
        itemsById: new Map(view.items.map((i) => [i.id, i])),
        lastRequest: previousRequestTime(view, points[k - 1]?.time ?? null),
        raw: deepFreeze(rawEntries(view.items)),
        following: followingRequests(loaded.fixture.items, point.turn, points[k + 1]?.turn ?? null),
      };
    });
    const wanted = options.decisionRecords?.(loaded) ?? true;
    options.conditions.forEach((condition, i) => {
      const removedBy = new Map<string, RemovedBy>();
      const { records, points, charges } = runCondition(condition, prepared, options, models, wanted, removedBy);
      const part: Totals = {
        perFixture:
          points.length > 0
            ? [
                {
                  fixture: loaded.fixture.id,
                  prunePoints: points.length,
                  ...aggregate(points, models.reader),
                  ...oncePerFixture(points),
                },
              ]
            : [],
        removedBy,
        charges,
        economics: points.map((p) => p.economics),
      };
      addTotals(totals[i]!, part);
      sink.fixture({ condition, loaded, records, points, totals: part });
    });
    options.onProgress?.(++done, options.fixtures.length);
  }
  onTotals?.(totals);
  return options.conditions.map((c, i) => summarise(c, options, models.reader, totals[i]!));
}

/** The whole study in memory: for tests and small corpora. The CLI streams instead (streamStudy). */
export function runStudy(options: StudyOptions): ConditionRun[] {
  const collected = options.conditions.map(() => ({ records: [] as DecisionRecord[], points: [] as PointMeasures[] }));
  const index = new Map(options.conditions.map((c, i) => [c, i]));
  const summaries = streamStudy(options, {
    fixture(chunk) {
      const into = collected[index.get(chunk.condition as Condition)!]!;
      into.records.push(...chunk.records);
      into.points.push(...chunk.points);
    },
  });
  return options.conditions.map((c, i) => ({ info: c, ...collected[i]!, summary: summaries[i]! }));
}

function runCondition(
  condition: Condition,
  prepared: readonly PreparedPoint[],
  options: StudyOptions,
  models: StudyModels,
  wantRecords: boolean,
  removedBy: Map<string, RemovedBy>,
): { records: DecisionRecord[]; points: PointMeasures[]; charges: CallCharge[] } {
  const records: DecisionRecord[] = [];
  const points: PointMeasures[] = [];
  const charges: CallCharge[] = [];
  const requests: PointRequestInput[] = [];
  for (const { loaded, point, oracle, view, itemsById, lastRequest, raw, following } of prepared) {
    const charge = models.predictorCharge?.(condition.name, view);
    if (charge) charges.push(charge);
    const eligibilities = decideChecked(condition, view);
    const timing = decideTiming(effectiveTiming(condition, options), view, { previousRequestTime: lastRequest });
    const proposed = eligibilities.map((e) => ({ e, decision: decisionOf(e, timing.applyNow) }));
    const texts = new Map<string, string>();
    const counted = new Map<string, number>();
    for (const { e, decision } of proposed) {
      // A DEFER is a removal put off, so whether applying it would split a call from its result is asked of it too;
      // only a removal that leaves no text can split one (placeholders none), so only then is a DEFER's text needed.
      if (decision !== 'PRUNE' && !(decision === 'DEFER' && options.placeholders === 'none')) continue;
      const item = itemsById.get(e.itemId)!;
      const left = leftBehindCounted(
        {
          view,
          item,
          marker: { rule: e.rule, rung: e.rung, recoverability: recoverabilityOf(view, item) },
          mode: options.placeholders,
          residue: e.residue,
          replacement: e.replacement,
        },
        options.tokens,
      );
      texts.set(e.itemId, left.text);
      counted.set(e.itemId, left.tokens);
    }
    const splits = pairSplits(view, texts);
    const decided = proposed.map(({ e, decision }) => {
      const split = splits.get(e.itemId);
      return split
        ? { e: { ...e, reason: `${e.reason}; kept: ${split}` }, decision: 'KEEP' as const }
        : { e, decision };
    });
    const removals: AppliedRemoval[] = [];
    for (const { e, decision } of decided) {
      if (decision !== 'PRUNE') continue;
      const text = texts.get(e.itemId)!;
      const leftBehindTokens = counted.get(e.itemId)!;
      removals.push({ itemId: e.itemId, residue: e.residue, leftBehind: text, leftBehindTokens });
      countRemoval(removedBy, e, itemsById.get(e.itemId)!.tokens - leftBehindTokens);
    }
    const score = scorePoint({
      condition: condition.name,
      fixture: loaded.fixture,
      point,
      oracle,
      view,
      episodes: loaded.oracle?.episodes,
      fixtureOracle: loaded.oracle,
      decisions: decided.map(({ e, decision }) => ({ itemId: e.itemId, decision })),
      removals,
      overheadTokens: charge ? chargeTokens(charge) : 0,
    });
    const behaviour = pointBehaviour(models.reader, {
      fixture: loaded.fixture,
      point,
      view,
      removals,
      outcomes: score.measures.obligationOutcomes,
    });
    points.push({ ...score.measures, behaviour });
    const removalById = new Map(removals.map((r) => [r.itemId, r]));
    requests.push({
      time: point.time,
      previousRequestTime: lastRequest,
      raw,
      sent: sentEntries(view, removalById),
      followingRequests: following,
      overheadTokens: score.measures.tokens.overhead,
    });
    if (!wantRecords) continue;
    for (const { e, decision } of decided) {
      const item = itemsById.get(e.itemId)!;
      const removal = removalById.get(e.itemId);
      const source =
        item.source && item.source.identity !== 'UNKNOWN'
          ? { identity: item.source.identity, version: versionLabel(item.source.version) }
          : ('UNKNOWN' as const);
      records.push({
        fixture: loaded.fixture.id,
        prunePoint: point.id,
        condition: condition.name,
        itemId: item.id,
        decision,
        policyVersion: condition.version,
        eligibility: e.verdict,
        rule: e.rule,
        rung: e.rung,
        step: e.step ?? null,
        reason: e.reason,
        timing: {
          policy: timingLabel(effectiveTiming(condition, options)),
          reason: e.verdict === 'eligible' ? timing.reason : 'not eligible: timing not consulted',
        },
        obligationsConsulted: [...e.obligationsConsulted],
        regenerability: { ...classify(view, item) },
        recoverability: recoverabilityOf(view, item),
        source,
        provenance: {
          origin: item.origin,
          kind: item.kind,
          turn: item.turn,
          time: item.time,
          tool: item.tool?.name ?? null,
          callId: item.tool?.callId ?? null,
        },
        appliedAt: removal ? view.prunePoint.time : null,
        removal: removal ? (removal.residue ? 'residue' : 'whole') : null,
        residue: removal?.residue ? [...removal.residue] : null,
        placeholder: removal ? removal.leftBehind : null,
        pointer: item.flags.durablePointer ? { ...item.flags.durablePointer } : null,
        tokens: { item: item.tokens, placeholder: removal?.leftBehindTokens ?? 0 },
        oracle: { verdict: score.verdict(item.id), outcome: score.outcomes.get(item.id) ?? null },
      });
    }
  }
  const timesKnown = prepared[0]?.loaded.fixture.imported?.timestamps !== 'synthetic';
  const economics = sequenceEconomics(requests, modelledProfiles(), timesKnown);
  return { records, points: points.map((p, i) => ({ ...p, economics: economics[i]! })), charges };
}

/** The request a prune point sends: each item, or what its removal left behind (nothing, when it left no text). */
function sentEntries(view: PolicyView, removals: ReadonlyMap<string, AppliedRemoval>): RequestEntry[] {
  const out: RequestEntry[] = [];
  for (const item of view.items) {
    const removal = removals.get(item.id);
    if (!removal) out.push({ id: item.id, text: item.content, tokens: item.tokens });
    else if (removal.leftBehind !== '')
      out.push({ id: item.id, text: removal.leftBehind, tokens: removal.leftBehindTokens });
  }
  return out;
}

/**
 * Removals that would split a call from its result, with why. A removal that leaves nothing behind (placeholders
 * none, no residue) takes the item's turn out of the message list, and a lone result without its call, or a call
 * without its result, breaks every provider's message format; so such a removal stands only when the other half is
 * removed the same way now. A call whose result has not arrived yet would leave that result alone, so it stays. A
 * removal that leaves text (a marker, a residue, a comparator's replacement) keeps the turn, and the pair's shape.
 */
export function pairSplits(view: PolicyView, leftBehindById: ReadonlyMap<string, string>): Map<string, string> {
  const vanishes = (id: string): boolean => leftBehindById.get(id) === '';
  const splits = new Map<string, string>();
  for (const item of view.items) {
    if (!vanishes(item.id) || !item.tool || (item.kind !== 'tool-call' && item.kind !== 'tool-result')) continue;
    const other = counterpart(view.items, item);
    const call = item.tool.callId;
    if (!other) {
      if (item.kind === 'tool-call')
        splits.set(
          item.id,
          `its result (call ${call}) has not arrived, and removing the call alone would leave that result without it (placeholders none)`,
        );
      continue;
    }
    if (!vanishes(other.id)) {
      splits.set(
        item.id,
        `${other.id}, the ${other.kind} of call ${call}, stays, and removing ${item.id} alone would split the pair (placeholders none)`,
      );
    }
  }
  return splits;
}

function decisionOf(e: Eligibility, applyNow: boolean): Decision {
  if (e.verdict === 'keep') return 'KEEP';
  if (e.verdict === 'abstain') return 'ABSTAIN';
  return applyNow ? 'PRUNE' : 'DEFER';
}

/** A condition may come from outside the project; its output is checked before anything trusts it. */
function decideChecked(condition: Condition, view: PolicyView): readonly Eligibility[] {
  const where = (problem: string) =>
    failure('PL_POLICY_OUTPUT', condition.name, view.fixtureId, view.prunePoint.id, problem);
  let out: unknown;
  try {
    out = condition.decide(view);
  } catch (err) {
    throw where(`decide() threw: ${(err as Error).message}`);
  }
  if (!Array.isArray(out)) throw where('decide() must return an array of eligibilities');
  if (out.length !== view.items.length)
    throw where(`returned ${out.length} eligibilities for ${view.items.length} items`);
  return out.map((raw: unknown, i) => {
    const expected = view.items[i]!.id;
    const e = isPlainEligibility(raw) ? raw : parsedEligibility(raw, i, expected, where);
    if (e.itemId !== expected)
      throw where(`eligibility ${i} is for "${e.itemId}", expected "${expected}" (one per item, in view order)`);
    if (e.verdict !== 'eligible' && (e.residue || e.replacement !== undefined))
      throw where(`item "${e.itemId}" is not eligible but carries a residue or replacement`);
    return e;
  });
}

/** An eligibility the plain check did not accept, through the schema: accepted as parsed, or refused naming why. */
function parsedEligibility(raw: unknown, i: number, expected: string, where: (problem: string) => Error): Eligibility {
  const parsed = EligibilitySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field =
      issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || '(the whole eligibility)';
    throw where(`eligibility ${i} (item "${expected}"), field "${field}": ${issue.message}`);
  }
  return parsed.data;
}

/** Pools measures; `weights` says how many prune points each one already pools (1 for a prune point's own). */
function aggregate(points: readonly Measures[], reader: Reader, weights?: readonly number[]): Measures {
  const sum = (f: (p: Measures) => number): number => points.reduce((s, p) => s + f(p), 0);
  return {
    decisions: {
      total: sum((p) => p.decisions.total),
      keep: sum((p) => p.decisions.keep),
      prune: sum((p) => p.decisions.prune),
      defer: sum((p) => p.decisions.defer),
      abstain: sum((p) => p.decisions.abstain),
    },
    precision: poolOracle(
      points.map((p) => p.precision),
      weights,
    ),
    falsePruneRate: poolOracle(
      points.map((p) => p.falsePruneRate),
      weights,
    ),
    coverage: poolOracle(
      points.map((p) => p.coverage),
      weights,
    ),
    // Summed here; a fixture's and the study's own counts replace these with each unit counted once (oncePerFixture).
    ...sumOnce(points),
    abstentionRate: pool(points.map((p) => p.abstentionRate)),
    obligations: { preserved: sum((p) => p.obligations.preserved), total: sum((p) => p.obligations.total) },
    refetchAlerts: sum((p) => p.refetchAlerts),
    tokens: {
      raw: sum((p) => p.tokens.raw),
      removed: sum((p) => p.tokens.removed),
      placeholder: sum((p) => p.tokens.placeholder),
      overhead: sum((p) => p.tokens.overhead),
      final: sum((p) => p.tokens.final),
    },
    behaviour: poolBehaviour(
      points.map((p) => p.behaviour),
      reader,
    ),
  };
}

/** The timing a condition runs with: its own when it declares one, else the run's. */
export function effectiveTiming(
  condition: Pick<ConditionInfo, 'timing'>,
  options: Pick<StudyOptions, 'timing'>,
): Timing {
  return condition.timing ?? options.timing;
}

export interface RemovedBy {
  rule: string;
  step: number | null;
  items: number;
  netTokensRemoved: number;
}

/**
 * Counts one applied removal under its rule, from the decision itself rather than its record, so the counts are the
 * same whether or not the fixture's records are built.
 */
function countRemoval(into: Map<string, RemovedBy>, e: Eligibility, netTokens: number): void {
  const step = e.step ?? null;
  const key = `${step ?? 0}\u0000${e.rule}`;
  const entry = into.get(key) ?? { rule: e.rule, step, items: 0, netTokensRemoved: 0 };
  entry.items += 1;
  entry.netTokensRemoved += netTokens;
  into.set(key, entry);
}

/** One fixture's totals (or a merge's, read back from outputs): each prune point's economics as recorded. */
export interface Totals {
  perFixture: readonly FixtureMeasures[];
  removedBy: ReadonlyMap<string, RemovedBy>;
  charges: readonly CallCharge[];
  economics: readonly (PointEconomics | undefined)[];
}

/**
 * Fixtures' totals joined in fixture order, which equals pooling every prune point: sums of counts are associative,
 * and the economics are pooled as the points arrive, in the same order (addEconomics), rather than held point by
 * point until the summary.
 */
export interface RunTotals {
  perFixture: FixtureMeasures[];
  removedBy: Map<string, RemovedBy>;
  charges: CallCharge[];
  economics: EconomicsTotal[];
}

export function emptyTotals(): RunTotals {
  return {
    perFixture: [],
    removedBy: new Map(),
    charges: [],
    economics: emptyEconomics(modelledProfiles().map((p) => p.id)),
  };
}

/**
 * Adds the totals of later fixtures (a worker's, one fixture at a time) to the totals so far: the lists continue in
 * fixture order and removals add up by rule, so joining in fixture order gives what one pass over all would.
 */
export function addTotals(into: RunTotals, part: Totals): void {
  into.perFixture.push(...part.perFixture);
  into.charges.push(...part.charges);
  for (const p of part.economics) addEconomics(into.economics, p);
  for (const [key, r] of part.removedBy) {
    const entry = into.removedBy.get(key) ?? { rule: r.rule, step: r.step, items: 0, netTokensRemoved: 0 };
    entry.items += r.items;
    entry.netTokensRemoved += r.netTokensRemoved;
    into.removedBy.set(key, entry);
  }
}

/** Totals read back whole (a merge's) as a run's. */
export function joinedTotals(all: Totals): RunTotals {
  const into = emptyTotals();
  addTotals(into, all);
  return into;
}

/** A condition's summary from its totals; shards' totals joined in fixture order give the unsharded summary. */
export function summarise(
  c: ConditionInfo,
  options: Pick<StudyOptions, 'exploratory' | 'exploratoryConditions' | 'timing' | 'placeholders' | 'tokens'>,
  reader: Reader,
  { perFixture, removedBy, charges, economics }: RunTotals,
): Summary {
  return {
    artifactVersion: ARTIFACT_VERSION,
    exploratory: (options.exploratory ?? false) || (options.exploratoryConditions?.includes(c.name) ?? false),
    condition: c.name,
    layer: c.layer,
    rung: c.rung,
    policyVersion: c.version,
    upperRisk: c.upperRisk,
    parameters: { ...c.parameters },
    ...(c.sweepOf ? { sweepOf: { ...c.sweepOf } } : {}),
    timing: timingLabel(effectiveTiming(c, options)),
    placeholders: options.placeholders,
    fixtures: perFixture.length,
    prunePoints: perFixture.reduce((s, f) => s + f.prunePoints, 0),
    ...aggregate(
      perFixture,
      reader,
      perFixture.map((f) => f.prunePoints),
    ),
    removedBy: [...removedBy.values()]
      .map((r) => ({ ...r }))
      .sort((a, b) => (a.step ?? 0) - (b.step ?? 0) || byCodeUnit(a.rule, b.rule)),
    perFixture: [...perFixture],
    modelUsage: usageOf(charges),
    economics: economics.map((e) => ({ ...e })),
    ...optional('cacheTelemetry', cacheTelemetryOf(charges, options.tokens)),
  };
}

/** A field written only when it has a value, so results without it stay byte-identical. */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
