// Builds a fixture from what an importer read off a recorded session. Importers say what each message or event was;
// the builder numbers items and turns, declares tools, fills times, flags what the record checkably shows, and
// places the prune points. An imported trace has no oracle and no downstream obligations.
import type { TokenCounter } from '../accounting/tokens.js';
import { byCodeUnit } from '../fixture/canonical.js';
import {
  Imported,
  type ContentBlock,
  type Effect,
  type Fixture,
  type Item,
  type ItemKind,
  type Origin,
  type SideEffectClass,
  type Source,
  type Status,
} from '../fixture/schema.js';
import { holdsSecret } from './redact.js';

export const IMPORTER_VERSION = '2.11.0';

export type Format = Imported['format'];
export const FORMATS: readonly Format[] = Imported.shape.format.options;

export interface Draft {
  readonly origin: Origin;
  readonly kind: ItemKind;
  readonly content: string;
  /** Every block the model saw, when the record holds more than text (an image a tool returned). */
  readonly blocks?: readonly ContentBlock[];
  /** ISO 8601 (any offset) or epoch milliseconds, when the record has it. */
  readonly time?: string | number | undefined;
  readonly tool?: {
    readonly name: string;
    readonly sideEffect: SideEffectClass;
    readonly arguments: Record<string, unknown>;
    readonly callId: string;
  };
  readonly status?: Status;
  readonly source?: Source;
  /** Sources the call changed, each with its outcome when the record shows it (see `settleEffects`). */
  readonly effects?: readonly (string | Effect)[];
  readonly negativeResult?: boolean;
  readonly transientState?: boolean;
}

/** A valid fixture id from any text: letters, digits and . _ : - only, starting with a letter or digit. */
export function safeId(text: string): string {
  const s = text.replace(/[^A-Za-z0-9._:-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return s.length > 0 ? s : 'x';
}

const CONSTRAINT_CUE = /\b(do not|don't|never|must not|must|should not|shouldn't|make sure|only|always|avoid)\b/i;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .filter((s) => s.length >= 12);
}

export class TraceBuilder {
  private readonly drafts: { draft: Draft; turn: number }[] = [];
  private readonly tools = new Map<string, SideEffectClass>();
  private readonly boundaries: { turn: number; subgoal: string }[] = [];
  private turn = 0;
  private subgoal = '';
  private worked = false;
  /** The last turn carried over from an earlier session (`resumeFrom`): its points were that session's. */
  private carried = -1;
  /** The recorder's format version as the record states or shows it (e.g. `1.x function-calling`). */
  formatVersion: string | undefined;
  /**
   * Records of the conversation the importer left out as on a branch it abandoned (a Claude Code /rewind or edited
   * prompt): for the import report, not the fixture.
   */
  abandoned = 0;

  constructor(readonly format: Format) {}

  /**
   * The recorded outcome of a call that changed files: every effect of the call item `callId` takes the result's
   * outcome (an edit the tool refused is `failed`), so a per-effect outcome is on the call, where the schema keeps it.
   */
  settleEffects(callId: string, outcome: Effect['outcome']): void {
    for (let i = this.drafts.length - 1; i >= 0; i--) {
      const { draft } = this.drafts[i]!;
      if (draft.kind !== 'tool-call' || draft.tool?.callId !== callId) continue;
      if (!draft.effects?.length) return;
      this.drafts[i] = {
        ...this.drafts[i]!,
        draft: {
          ...draft,
          effects: draft.effects.map((e) => ({ source: typeof e === 'string' ? e : e.source, outcome })),
        },
      };
      return;
    }
  }

  /**
   * A session that goes on from `before` after the runtime compacted its context: the task in progress and the
   * recorder's version carry over; the items do not (the model no longer has them).
   */
  continueFrom(before: TraceBuilder): void {
    this.subgoal = before.subgoal;
    this.formatVersion = before.formatVersion;
  }

  /**
   * A session that goes on from `before` after the runtime changed what it resends of the same history (OpenCode's
   * prune clears old tool outputs): every item carries over in its turn as `rewrite` says the model is now sent it,
   * and so do the tools, the task in progress and the recorder's version. The points up to the last turn carried
   * over were `before`'s, whose context they saw: the task boundary there is not this session's again.
   * With `from`, only the drafts from that index on carry over (the tail a compaction kept), and the tools they use.
   */
  resumeFrom(before: TraceBuilder, rewrite: (draft: Draft) => Draft, from = 0): void {
    this.continueFrom(before);
    for (const { draft, turn } of before.drafts.slice(from)) this.drafts.push({ draft: rewrite(draft), turn });
    if (from === 0) for (const [name, sideEffect] of before.tools) this.tools.set(name, sideEffect);
    else for (const { draft } of this.drafts) if (draft.tool) this.declare(draft.tool);
    this.turn = before.turn;
    this.worked = before.worked;
    this.carried = before.turn;
  }

  /** The model acts: a new turn begins (its calls and their results share it). */
  modelTurn(): void {
    if (this.drafts.length > 0) this.turn += 1;
    this.worked = true;
  }

  /**
   * A user instruction. After work has happened it starts a new task: the turn before it is a task boundary,
   * which gets its own prune point.
   */
  userInstruction(content: string, time?: string | number): void {
    if (this.worked) {
      if (this.turn > this.carried) this.boundaries.push({ turn: this.turn, subgoal: this.subgoal });
      this.turn += 1;
      this.worked = false;
    }
    this.subgoal = content;
    this.add({ origin: 'user', kind: 'instruction', content, time });
  }

  add(draft: Draft): void {
    if (draft.tool) this.declare(draft.tool);
    this.drafts.push({ draft, turn: this.turn });
  }

  private declare(tool: NonNullable<Draft['tool']>): void {
    const name = safeId(tool.name);
    const known = this.tools.get(name);
    // One tool name, one side-effect class: if an importer classed the same name two ways, the stronger holds.
    if (!known || rank(tool.sideEffect) > rank(known)) this.tools.set(name, tool.sideEffect);
  }

  /** The drafts from index `from` on, in order. */
  draftsFrom(from: number): Draft[] {
    return this.drafts.slice(from).map((d) => d.draft);
  }

  get size(): number {
    return this.drafts.length;
  }

  build(meta: {
    id: string;
    sourceFile: string;
    sourceSha256: string;
    redaction: Imported['redaction'];
    tokens: TokenCounter;
    session?: string;
  }): Fixture {
    const times = fillTimes(this.drafts.map((d) => d.draft.time));
    const allTexts = this.drafts.map((d) => d.draft.content);
    const callIds = uniqueCallIds(this.drafts.map((d) => d.draft));
    const items: Item[] = this.drafts.map(({ draft, turn }, i) => {
      const item: Item = {
        id: `i${i + 1}`,
        turn,
        time: times.values[i]!,
        origin: draft.origin,
        kind: draft.kind,
        content: draft.content,
        flags: {
          negativeResult: draft.negativeResult ?? false,
          transientState: draft.transientState ?? false,
          oneTimeSecret: draft.origin !== 'system' && holdsSecret(draft.content),
          soleConstraintRecord: draft.origin === 'user' && soleConstraint(draft.content, allTexts, i),
          pendingPlanReference: false,
        },
      };
      if (draft.blocks?.some((b) => b.type !== 'text')) item.blocks = [...draft.blocks];
      if (draft.tool)
        item.tool = { name: safeId(draft.tool.name), arguments: { ...draft.tool.arguments }, callId: callIds[i]! };
      if (draft.status) item.status = draft.status;
      if (draft.source) item.source = draft.source;
      if (draft.effects && draft.effects.length > 0) item.effects = [...draft.effects];
      return item;
    });
    const lastTurn = items[items.length - 1]!.turn;
    const point = (id: string, turn: number, taskBoundary: boolean, subgoal: string) => {
      const inContext = items.filter((it) => it.turn <= turn);
      const budget = inContext.reduce((s, it) => s + meta.tokens(it.content), 0);
      return {
        id,
        turn,
        // A record's times need not rise item by item (a tool's end after the next message's start): the point
        // comes after everything in its context.
        time: inContext.reduce(
          (latest, it) => (Date.parse(it.time) > Date.parse(latest) ? it.time : latest),
          inContext[0]!.time,
        ),
        // The record names no context budget; the occupancy at the point stands in, so pressure timing reads 100%.
        budgetTokens: Math.max(1, budget),
        taskBoundary,
        subgoal: subgoalText(subgoal),
        visible: { pinned: [], protectedTools: [], obligations: [], pendingSteps: [], workUnits: [] },
        downstream: [],
      };
    };
    const prunePoints = [
      ...this.boundaries
        .filter((b) => b.turn < lastTurn)
        .map((b, n) => point(`task-${n + 1}`, b.turn, true, b.subgoal)),
      point('end', lastTurn, false, this.subgoal),
    ];
    return {
      schemaVersion: 1,
      id: meta.id,
      title: `${this.format} session ${meta.sourceFile}${meta.session ? ` (${meta.session})` : ''}`,
      description: `Imported from a recorded ${this.format} session (${meta.sourceFile}${meta.session ? `, ${meta.session}` : ''}). It has no oracle and no downstream obligations: conditions run over it, nothing scores it.`,
      exercises: [],
      families: [],
      tools: [...this.tools].sort(([a], [b]) => byCodeUnit(a, b)).map(([name, sideEffect]) => ({ name, sideEffect })),
      items,
      world: { sources: [], store: [] },
      prunePoints,
      imported: {
        format: this.format,
        sourceFile: meta.sourceFile,
        sourceSha256: meta.sourceSha256,
        importerVersion: IMPORTER_VERSION,
        ...(this.formatVersion ? { formatVersion: this.formatVersion } : {}),
        timestamps: times.kind,
        redaction: meta.redaction,
      },
    };
  }
}

/**
 * One id per call: some records reuse a call id for a later call (SWE-agent's replayed demonstrations do), which
 * would pair a result with the wrong call. A reused id gets a `:n` suffix from its second call on; each result takes
 * the id of the latest call so named.
 */
function uniqueCallIds(drafts: readonly Draft[]): (string | undefined)[] {
  const calls = new Map<string, number>();
  return drafts.map((d) => {
    if (!d.tool) return undefined;
    const id = safeId(d.tool.callId);
    const n = calls.get(id) ?? 0;
    if (d.kind === 'tool-call') {
      calls.set(id, n + 1);
      return n === 0 ? id : `${id}:${n + 1}`;
    }
    return n <= 1 ? id : `${id}:${n}`;
  });
}

function rank(s: SideEffectClass): number {
  return ['pure', 'read-mutable', 'non-idempotent', 'destructive'].indexOf(s);
}

function subgoalText(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ').slice(0, 2000);
  return t.length > 0 ? t : '(the record states no task)';
}

/** A user message holding a constraint-like sentence ("do not ...", "must ...") that no other item repeats. */
function soleConstraint(content: string, all: readonly string[], index: number): boolean {
  const cues = sentences(content).filter((s) => CONSTRAINT_CUE.test(s));
  return cues.some((s) => all.every((other, j) => j === index || !other.replace(/\s+/g, ' ').includes(s)));
}

function toIso(t: string | number): string | undefined {
  const d = typeof t === 'number' ? new Date(t) : new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Recorded times where the record has them; otherwise the nearest earlier (or later) recorded one; else synthetic. */
function fillTimes(raw: readonly (string | number | undefined)[]): { values: string[]; kind: Imported['timestamps'] } {
  const parsed = raw.map((t) => (t === undefined ? undefined : toIso(t)));
  const known = parsed.filter((t): t is string => t !== undefined);
  if (known.length === 0) {
    // Seconds after a fixed epoch keep the logical order visible without pretending to know when anything happened.
    return { values: parsed.map((_, i) => new Date(Date.UTC(2000, 0, 1) + i * 1000).toISOString()), kind: 'synthetic' };
  }
  let last = known[0]!;
  const values = parsed.map((t) => (t === undefined ? last : (last = t)));
  return { values, kind: known.length === parsed.length ? 'recorded' : 'inferred' };
}

/** What one session of an importer builds: its builder, and whatever it keeps about the events it has read. */
export interface SessionState {
  readonly b: TraceBuilder;
}

/**
 * The sessions of a conversation whose runtime condenses the model's context (an OpenHands condensation): the
 * context ends at each condensation, as at a Claude Code compaction, and what follows is another session,
 * `after-condensation-N`, that starts from the view the condensation left and carries the task on.
 */
export class CondensedSessions<S extends SessionState> {
  private count = 0;
  /** The session the next event goes to. */
  current: S;

  constructor(
    private readonly open: (session?: string) => TraceBuilder,
    private readonly start: (b: TraceBuilder) => S,
  ) {
    this.current = start(open());
  }

  /**
   * A condensation left `view`: the next session starts from it, each event replayed in order. A condensation
   * before anything reached the model ends nothing: the session goes on.
   */
  async condensed<V>(view: Iterable<V>, replay: (session: S, event: V) => Promise<void>): Promise<void> {
    if (this.current.b.size === 0) return;
    this.count += 1;
    const next = this.start(this.open(`after-condensation-${this.count}`));
    next.b.continueFrom(this.current.b);
    this.current = next;
    for (const v of view) await replay(next, v);
  }
}
