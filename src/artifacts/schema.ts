// The declared shape of everything a run writes: decision records, per-prune-point measures, summaries and the
// run manifest. Writers build these objects and tests validate written files against the same schemas.
import { z } from 'zod';
import { CacheTelemetry, EconomicsTotal, PointEconomics } from '../economics/record.js';
import { ResidueField } from '../fixture/schema.js';

/** 2: harm (necessary units) and obligations counted once per fixture joined the measures and points.csv. */
export const ARTIFACT_VERSION = 2;

export const Decision = z.enum(['KEEP', 'PRUNE', 'DEFER', 'ABSTAIN']);
const Rung = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
const UNKNOWN = z.literal('UNKNOWN');

export const Ratio = z.strictObject({
  numerator: z.int().nonnegative(),
  denominator: z.int().nonnegative(),
  /** numerator / denominator; null when the denominator is 0 (undefined, never 0 or 1). */
  value: z.number().min(0).max(1).nullable(),
});

/** Present, and true, only on the lines of an exploratory run: such a line can never pass for a preregistered one. */
const ExploratoryStamp = { exploratory: z.literal(true).optional() };

/** A measure that needs an oracle, on a trace that has none: undefined, with the reason, never 0 or 1. */
export const Unscored = z.strictObject({
  numerator: z.null(),
  /** What the measure would divide by, when it is known without an oracle (applied removals); else null. */
  denominator: z.int().nonnegative().nullable(),
  value: z.null(),
  reason: z.string().min(1),
});

/** precision, false-prune rate and coverage: a ratio against the oracle, or unscored when there is none. */
export const OracleRatio = z.union([Ratio, Unscored]);

export const DecisionRecord = z.strictObject({
  ...ExploratoryStamp,
  fixture: z.string(),
  prunePoint: z.string(),
  condition: z.string(),
  itemId: z.string(),
  decision: Decision,
  policyVersion: z.string(),
  /** What the condition's evidence said before timing: the eligibility decision. */
  eligibility: z.enum(['keep', 'eligible', 'abstain']),
  rule: z.string(),
  rung: Rung.nullable(),
  /** In a ladder: the rule's position in the application order. */
  step: z.int().positive().nullable(),
  reason: z.string(),
  timing: z.strictObject({ policy: z.string(), reason: z.string() }),
  obligationsConsulted: z.array(z.string()),
  regenerability: z.strictObject({
    class: z.enum(['deterministic', 'durable-pointer', 'irreducible']),
    why: z.string(),
  }),
  recoverability: z.enum(['durable-pointer', 're-read', 're-invoke', 'none']),
  source: z.union([z.strictObject({ identity: z.string(), version: z.string() }), UNKNOWN]),
  provenance: z.strictObject({
    origin: z.string(),
    kind: z.string(),
    turn: z.int(),
    time: z.string(),
    tool: z.string().nullable(),
    callId: z.string().nullable(),
  }),
  /** Logical time of the prune point when the removal was applied; null when nothing was applied. */
  appliedAt: z.string().nullable(),
  removal: z.enum(['whole', 'residue']).nullable(),
  residue: z.array(ResidueField).nullable(),
  placeholder: z.string().nullable(),
  pointer: z.strictObject({ storeKey: z.string(), contentHash: z.string() }).nullable(),
  tokens: z.strictObject({ item: z.int().nonnegative(), placeholder: z.int().nonnegative() }),
  /** The oracle's verdict, attached after the decision was made; never visible to the policy. */
  oracle: z.strictObject({
    /** unscored: the fixture is an imported trace with no oracle. */
    verdict: z.enum(['removable', 'partial', 'redundant-copy', 'necessary', 'unscored']),
    outcome: z.enum(['true-prune', 'false-prune']).nullable(),
  }),
});

export const Tokens = z.strictObject({
  raw: z.int().nonnegative(),
  removed: z.int().nonnegative(),
  placeholder: z.int().nonnegative(),
  overhead: z.int().nonnegative(),
  final: z.int().nonnegative(),
});

export const DecisionCounts = z.strictObject({
  total: z.int().nonnegative(),
  keep: z.int().nonnegative(),
  prune: z.int().nonnegative(),
  defer: z.int().nonnegative(),
  abstain: z.int().nonnegative(),
});

export const ObligationOutcome = z.strictObject({
  id: z.string(),
  visibility: z.enum(['visible', 'downstream']),
  preserved: z.boolean(),
  /** present: every string is still in context; pointer / re-read: recovered that way; lost: not preserved. */
  how: z.enum(['present', 'pointer', 're-read', 'lost']),
  missing: z.array(z.string()),
});

/** Calls to a model, with the usage and cost their responses reported; latency as recorded (replayed as recorded). */
export const ModelUsage = z.strictObject({
  provider: z.string(),
  model: z.string(),
  calls: z.int().nonnegative(),
  /** Calls that failed after their retries, or whose answer could not be parsed; they stay in every denominator. */
  errors: z.int().nonnegative(),
  inputTokens: z.int().nonnegative(),
  outputTokens: z.int().nonnegative(),
  cacheReadTokens: z.int().nonnegative(),
  cacheWriteTokens: z.int().nonnegative(),
  /** From the dated pricing table; null when a rate it needs is not confirmed there. */
  costUsd: z.number().nonnegative().nullable(),
  latencyMs: z.strictObject({ total: z.int().nonnegative(), max: z.int().nonnegative() }),
});

/** Probe answers from one context (full or pruned). Every probe is in every denominator, errors included. */
export const BehaviourSide = z.strictObject({
  /** Probes answered correctly, over all probes. */
  taskSuccess: Ratio,
  /** Probes on an obligation that carries a user constraint, answered wrongly, over such probes. */
  constraintViolations: Ratio,
  /** Answers asserting what the given context does not support (wrong, or right with the facts neither present nor recoverable), over all probes. */
  unsupportedClaims: Ratio,
  /** Probes whose facts had left the context and could not be recovered (pointer, re-read), over probes whose facts had left. */
  recoveryFailures: Ratio,
  /** Model calls that failed or answered unparseably; counted as wrong answers above. */
  errors: z.int().nonnegative(),
});

export const Behaviour = z.strictObject({
  /** 'structural' (the embedded reader: required facts looked up in the context) or provider/model. */
  reader: z.string(),
  epochs: z.int().positive(),
  /**
   * The temperature sent; null where none is sent (the structural reader, or Anthropic, whose API here takes none):
   * the provider's default sampling applies, and its epochs differ only by that sampling.
   */
  temperature: z.number().nullable(),
  /** One seed per epoch; null where the reader draws nothing or the provider takes no seed. */
  seeds: z.array(z.int()).nullable(),
  /**
   * Present on a model reader's block only, and then 'structural': its recoveryFailures are not the model's
   * judgement but the scoring's (facts that left the context with no pointer or re-read to bring them back), since
   * the model reader does not re-fetch. The structural reader judges everything structurally, so it needs no label.
   */
  recoveryJudgedBy: z.literal('structural').optional(),
  /** Probe answers per side: obligations times epochs. */
  probes: z.int().nonnegative(),
  full: BehaviourSide,
  pruned: BehaviourSide,
  /** Paired with the full context (raw) on the same probes and epochs. */
  paired: z.strictObject({
    /** Probes the full context answers correctly and the pruned context does not, over probes the full context answers correctly. */
    causedFailures: Ratio,
    /** (pruned correct - full correct) / probes; null with no probes. */
    successDifference: z.number().nullable(),
  }),
  /** The reader's model calls for these probes; null for the structural reader. */
  usage: ModelUsage.nullable(),
});

/**
 * Harm: necessary units removed over necessary units in context. A unit is an item the oracle marks necessary, a
 * partial item (its residue is necessary: removing it without that residue harms it), or one of the `keep` slots of
 * a redundant group (the k-th slot is harmed when fewer than k of its copies stay, so a copy shared by overlapping
 * groups harms only the groups it leaves short). At a prune point each unit counts once; over a fixture each unit counts ONCE however many prune points hold it, harmed when it is
 * removed at any prune point where it is necessary; a pool sums fixtures, so its denominator is the distinct
 * (fixture, unit) pairs. Unscored (no oracle): null.
 */
export const Harm = z
  .strictObject({ necessaryItems: z.int().nonnegative(), necessaryRemoved: z.int().nonnegative() })
  .refine((h) => h.necessaryRemoved <= h.necessaryItems, 'necessaryRemoved cannot exceed necessaryItems');

/**
 * Obligations lost, each declared obligation counted once per fixture (lost when it is lost at any prune point that
 * judges it), so an obligation judged at ten prune points weighs as much as one judged at one. At a prune point: the
 * point's own obligations.
 */
export const ObligationsOnce = z
  .strictObject({ lost: z.int().nonnegative(), declared: z.int().nonnegative() })
  .refine((o) => o.lost <= o.declared, 'lost cannot exceed declared');

/**
 * One scenario family's share of a measure: removals and false prunes of items of that family's episodes, its
 * candidates and the oracle's eligible removals among them, and its necessary units (once per fixture above a
 * point). An item of a generated fixture is attributed through the oracle's episodes (items in no episode to
 * "(none)"); a fixture whose oracle declares no episodes (the canonical ones) attributes every item to its first
 * declared family, or "(none)" when it declares none.
 */
export const FamilyCounts = z.strictObject({
  family: z.string(),
  candidates: z.int().nonnegative(),
  eligible: z.int().nonnegative(),
  prunes: z.int().nonnegative(),
  falsePrunes: z.int().nonnegative(),
  necessaryItems: z.int().nonnegative(),
  necessaryRemoved: z.int().nonnegative(),
});

export const Measures = z.strictObject({
  decisions: DecisionCounts,
  precision: OracleRatio,
  falsePruneRate: OracleRatio,
  coverage: OracleRatio,
  harm: Harm.nullable(),
  obligationsLost: ObligationsOnce,
  /** Per scenario family, sorted by family; empty when unscored. */
  families: z.array(FamilyCounts),
  abstentionRate: Ratio,
  obligations: z.strictObject({ preserved: z.int().nonnegative(), total: z.int().nonnegative() }),
  refetchAlerts: z.int().nonnegative(),
  tokens: Tokens,
  behaviour: Behaviour,
});

export const PointMeasures = z.strictObject({
  ...ExploratoryStamp,
  fixture: z.string(),
  prunePoint: z.string(),
  condition: z.string(),
  ...Measures.shape,
  obligationOutcomes: z.array(ObligationOutcome),
  /** The point's necessary units (see Harm) by key, so a fixture counts each once; empty when unscored. */
  necessaryUnits: z.array(z.strictObject({ key: z.string(), removed: z.boolean(), family: z.string() })),
  alerts: z.array(z.strictObject({ itemId: z.string(), refetchedBy: z.string() })),
  /** First divergence, reuse and economic effect of this prune point's request (src/economics/). */
  economics: PointEconomics.optional(),
});

export const FixtureMeasures = z.strictObject({
  fixture: z.string(),
  prunePoints: z.int().nonnegative(),
  ...Measures.shape,
});

export const Summary = z.strictObject({
  artifactVersion: z.literal(ARTIFACT_VERSION),
  /** True for a run not checked against the preregistration (see the manifest's study block). */
  exploratory: z.boolean(),
  condition: z.string(),
  layer: z.enum(['control', 'A', 'B', 'comparator']),
  rung: Rung.nullable(),
  policyVersion: z.string(),
  upperRisk: z.boolean(),
  parameters: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  /** Present only on a parameter-sweep variant: the base condition, the parameter it varies and its value here. */
  sweepOf: z.strictObject({ condition: z.string(), parameter: z.string(), value: z.number() }).optional(),
  timing: z.string(),
  placeholders: z.enum(['marker', 'none']),
  fixtures: z.int().nonnegative(),
  prunePoints: z.int().nonnegative(),
  ...Measures.shape,
  /** Which rule removed how many items and tokens (ladders attribute each removal to one rule). */
  removedBy: z.array(
    z.strictObject({
      rule: z.string(),
      step: z.int().positive().nullable(),
      items: z.int(),
      netTokensRemoved: z.int(),
    }),
  ),
  /** The predictor's model calls this condition relied on (management overhead); null when it made none. */
  modelUsage: ModelUsage.nullable(),
  perFixture: z.array(FixtureMeasures),
  /** Per cache profile: tokens saved × price, cache loss, overhead and net over every prune point (src/economics/). */
  economics: z.array(EconomicsTotal).optional(),
  /** The predictor calls' reported cache tokens against the prediction; absent when no call kept its request or no profile covers the model. */
  cacheTelemetry: CacheTelemetry.optional(),
});

/** Model calls of one role: how many finished and how many of them failed (after retries, or unparseable). */
export const ModelCalls = z.strictObject({ finished: z.int().nonnegative(), failed: z.int().nonnegative() });
export type ModelCalls = z.infer<typeof ModelCalls>;

/** The volatile facts of one run. */
export const RunBlock = z.strictObject({
  startedAt: z.string(),
  gitCommit: z.string(),
  gitDirty: z.boolean().nullable(),
  node: z.string(),
});
export type RunBlock = z.infer<typeof RunBlock>;

/** The choices of experiment --decision-log, the default first. */
export const DECISION_LOGS = ['committed', 'all'] as const;
export const DecisionLog = z.enum(DECISION_LOGS);
export type DecisionLog = z.infer<typeof DecisionLog>;

export const Manifest = z.strictObject({
  artifactVersion: z.literal(ARTIFACT_VERSION),
  package: z.strictObject({ name: z.string(), version: z.string() }),
  tokenizer: z.strictObject({ package: z.string(), version: z.string(), encoding: z.string() }),
  seed: z.int(),
  timing: z.string(),
  placeholders: z.enum(['marker', 'none']),
  /**
   * Which fixtures' decision records the run logged: `committed` those outside the generated corpus (the generated
   * corpus's points alone), `all` every fixture's. A manifest written before the choice existed logged all.
   */
  decisionLog: DecisionLog.default('all'),
  conditions: z.array(
    z.strictObject({
      name: z.string(),
      layer: z.string(),
      rung: Rung.nullable(),
      version: z.string(),
      /** Present, and true, for a condition the preregistration does not name, in a run otherwise confirmatory. */
      ...ExploratoryStamp,
    }),
  ),
  /** Whether the inputs were checked against a preregistration; an exploratory run can never pass for one. */
  study: z.strictObject({
    exploratory: z.boolean(),
    /** The preregistration the inputs were checked against (file relative to the package root), or null. */
    preregistration: z.strictObject({ file: z.string(), sha256: z.string() }).nullable(),
    /** The fixture manifest (fixtures/MANIFEST.json) the inputs were checked against, or null. */
    fixtureManifest: z.strictObject({ file: z.string(), sha256: z.string() }).nullable(),
  }),
  /** Which backend played each model role; `embedded` needs no key and no network. */
  models: z.array(
    z.strictObject({
      role: z.enum(['predictor', 'reader']),
      provider: z.string(),
      model: z.string().nullable(),
      /**
       * A remote role's distinct calls in this run (from the network or the cache) and those of them with no usable
       * response, whose consumers abstained or answered wrongly. Absent for an embedded role, which makes no calls.
       */
      calls: ModelCalls.optional(),
    }),
  ),
  fixtures: z.array(
    z.strictObject({
      file: z.string(),
      id: z.string(),
      families: z.array(z.string()),
      sha256: z.string(),
      /** null for an imported trace, which has no oracle. */
      oracleFile: z.string().nullable(),
      oracleSha256: z.string().nullable(),
    }),
  ),
  /**
   * Files the run wrote, relative to the output folder, with their sha256. For a gzip file (`.gz`) the hash is over
   * the decompressed text, so it pins content whatever zlib wrote; such files are git-ignored and `--check` verifies
   * a regeneration against this pin.
   */
  outputs: z.array(z.strictObject({ file: z.string(), sha256: z.string() })),
  /**
   * Present only on a run that --max-cost-usd stopped: the selected conditions it could not finish (each needed a
   * call that was not made). The conditions written are complete; running again with --resume finishes the rest.
   */
  incomplete: z
    .strictObject({
      stoppedBy: z.literal('budget'),
      phase: z.enum(['predictor', 'reader']),
      missing: z.array(z.string()).min(1),
    })
    .optional(),
  /**
   * Only in manifests written before run.json existed: the run's volatile facts sat here, so every run rewrote the
   * manifest. Read so such results stay readable; never written.
   */
  run: RunBlock.optional(),
});

/**
 * run.json beside a manifest, git-ignored: what differs between two runs of the same inputs (when, from which
 * commit, whether the tree had uncommitted changes, which Node), kept out of manifest.json so that the same inputs
 * and code give a byte-identical manifest. `manifestSha256` ties it to the manifest it was written with; a run.json
 * that names another manifest describes another run.
 */
export const RunRecord = z.strictObject({ manifestSha256: z.string(), ...RunBlock.shape });
export type RunRecord = z.infer<typeof RunRecord>;

/**
 * One line of a condition's points.csv: every prune point of every fixture (committed for the whole corpus, for
 * paired tests), as counts only. harm at the point = necessaryRemoved / necessaryItems (see Harm); precision =
 * truePrunes / prune, falsePruneRate = falsePrunes / prune, coverage =
 * truePrunes / coverageDenominator, abstentionRate = abstain / decisions, obligations = preserved / total.
 */
export const PointRow = z.strictObject({
  exploratory: z.boolean(),
  fixture: z.string(),
  prunePoint: z.string(),
  decisions: z.int().nonnegative(),
  keep: z.int().nonnegative(),
  prune: z.int().nonnegative(),
  defer: z.int().nonnegative(),
  abstain: z.int().nonnegative(),
  /** Empty (null) on an imported trace, which has no oracle to judge its removals against. */
  truePrunes: z.int().nonnegative().nullable(),
  falsePrunes: z.int().nonnegative().nullable(),
  coverageDenominator: z.int().nonnegative().nullable(),
  /** Necessary units in context at this point and those of them removed (see Harm); empty when unscored. */
  necessaryItems: z.int().nonnegative().nullable(),
  necessaryRemoved: z.int().nonnegative().nullable(),
  obligationsPreserved: z.int().nonnegative(),
  obligationsTotal: z.int().nonnegative(),
  refetchAlerts: z.int().nonnegative(),
  rawTokens: z.int().nonnegative(),
  removedTokens: z.int().nonnegative(),
  placeholderTokens: z.int().nonnegative(),
  overheadTokens: z.int().nonnegative(),
  finalTokens: z.int().nonnegative(),
});
export const POINT_ROW_COLUMNS = Object.keys(PointRow.shape) as (keyof z.infer<typeof PointRow>)[];

export type Decision = z.infer<typeof Decision>;
export type PointRow = z.infer<typeof PointRow>;
export type Ratio = z.infer<typeof Ratio>;
export type Unscored = z.infer<typeof Unscored>;
export type OracleRatio = z.infer<typeof OracleRatio>;
export type DecisionRecord = z.infer<typeof DecisionRecord>;
export type Tokens = z.infer<typeof Tokens>;
export type DecisionCounts = z.infer<typeof DecisionCounts>;
export type ObligationOutcome = z.infer<typeof ObligationOutcome>;
export type Measures = z.infer<typeof Measures>;
export type Harm = z.infer<typeof Harm>;
export type FamilyCounts = z.infer<typeof FamilyCounts>;
export type ObligationsOnce = z.infer<typeof ObligationsOnce>;
export type PointMeasures = z.infer<typeof PointMeasures>;
export type FixtureMeasures = z.infer<typeof FixtureMeasures>;
export type Summary = z.infer<typeof Summary>;
export type ModelUsage = z.infer<typeof ModelUsage>;
export type BehaviourSide = z.infer<typeof BehaviourSide>;
export type Behaviour = z.infer<typeof Behaviour>;
export type Manifest = z.infer<typeof Manifest>;

export const MANIFEST_VERSION = 1;

/**
 * fixtures/MANIFEST.json: the frozen inputs of the study. Every sha256 is over the file's JSON text (after
 * decompression for a `.json.gz` file), so a hash names content, not a compressor's bytes. Files are relative to
 * the package root, sorted by code unit.
 */
export const FixtureManifest = z.strictObject({
  manifestVersion: z.literal(MANIFEST_VERSION),
  /** How the generated corpus was made; null for a corpus with no generated part. */
  generator: z
    .strictObject({
      name: z.string(),
      version: z.string(),
      seed: z.int(),
      count: z.int().nonnegative(),
      out: z.string(),
      removableShare: z.number().min(0).max(1).optional(),
    })
    .nullable(),
  fixtures: z.array(z.strictObject({ file: z.string(), id: z.string(), sha256: z.string() })),
  oracles: z.array(z.strictObject({ file: z.string(), fixtureId: z.string(), sha256: z.string() })),
});
export type FixtureManifest = z.infer<typeof FixtureManifest>;
