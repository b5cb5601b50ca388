// Builds one trajectory item by item: ids, logical times, tool declarations, world sources and store entries.
// Families and generic work write through it; each unit writes its own turns in order, and `arrange` lays the
// units' pieces of one turn out in a drawn order, so turn order and id uniqueness hold by construction. Ids are
// opaque draws from the fixture's own id stream (`i` + 8 hex for items, `k` + 8 hex for tool calls): an id that
// named its role or its episode (`x7`, `f2-rule`) would hand a classifier the oracle label.
import type { z } from 'zod';
import type { Rng } from './rng.js';
import { sha256 } from '../fixture/canonical.js';
import { drawFresh } from './fresh.js';
import type {
  DurablePointer,
  Effect,
  Item,
  SideEffectClass,
  Source,
  Status,
  ToolDeclaration,
} from '../fixture/schema.js';

/** An item as written to the fixture file: flags that are false are left to the schema's defaults. */
export type DraftItem = z.input<typeof Item>;

export interface ResultSpec {
  readonly content: string;
  readonly status?: Status;
  readonly source?: Source;
  readonly covers?: string[];
  readonly flags?: DraftItem['flags'];
}

export interface CallSpec {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  /** The call as the model rendered it (a command line, a patch). */
  readonly content: string;
  /** Sources the call changed; an Effect records its outcome per source, a bare string leaves it to the call's result. */
  readonly effects?: (string | Effect)[];
}

export interface Pair {
  readonly call: string;
  readonly result: string;
}

const TURN_SECONDS = 75;
/** Redraws before numbering: the committed corpus was drawn with 50, so changing it would change its bytes. */
const UNIQUE_TRIES = 50;

export class TrajectoryBuilder {
  readonly items: DraftItem[] = [];
  private readonly tools = new Map<string, ToolDeclaration>();
  private readonly sources = new Map<string, { fromTurn: number; content: string }[]>();
  private readonly store = new Map<string, string>();
  private readonly used = new Set<string>();
  private readonly ids = new Set<string>();
  private current = 0;
  private unit: string | undefined;
  /** Items each unit (episode, decoy or generic step) wrote, by unit index: the oracle's episode attribution. */
  readonly byUnit = new Map<string, string[]>();
  /** Where each unit's piece of a turn sits among the turn's pieces: drawn once per unit and turn. */
  private readonly ranks = new Map<string, number>();
  private readonly rankOf = new Map<string, number>();
  /** The last turn each unit wrote: a unit never goes back, other units may. */
  private readonly reached = new Map<string, number>();

  /**
   * Without an order stream the pieces of a turn stay in writing order (scratch builders); with one, `arrange`
   * shuffles them, so where an item sits in its turn says nothing of the unit that wrote it.
   */
  constructor(
    private readonly startMs: number,
    private readonly idStream: Rng,
    private readonly orderStream?: Rng,
  ) {}

  /** A fresh opaque id; the stream is the fixture's own, so ids carry no order that follows roles. */
  opaque(letter: string): string {
    for (;;) {
      const id = `${letter}${this.idStream.hex(8)}`;
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  /**
   * Attributes the items written from now on to a unit (undefined: to none, as for the task statement). A unit's
   * first turn may lie before the turn last written: units share turns, and a unit that opens over several turns
   * writes them all before another unit writes into the middle one.
   */
  writingFor(unit: string | undefined): this {
    if (this.unit !== undefined) this.reached.set(this.unit, this.current);
    this.unit = unit;
    this.current = unit === undefined ? this.current : (this.reached.get(unit) ?? 0);
    return this;
  }

  get turn(): number {
    return this.current;
  }

  /** Moves to a turn; a unit's turns never go back, which keeps its own items in trajectory order. */
  at(turn: number): this {
    if (turn < this.current) throw new Error(`internal: builder moved back from turn ${this.current} to ${turn}`);
    this.current = turn;
    return this;
  }

  timeOf(turn: number): string {
    return new Date(this.startMs + turn * TURN_SECONDS * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  /**
   * A name nobody in this trajectory has used yet (paths, test targets), so unrelated reads never look alike. A long
   * session can use up a name pool; then the name gets a counter (see fresh.ts) instead of failing.
   */
  unique(make: () => string): string {
    const name = drawFresh(make, this.used, UNIQUE_TRIES);
    this.used.add(name);
    return name;
  }

  tool(name: string, sideEffect: SideEffectClass, description: string): string {
    const known = this.tools.get(name);
    if (known && known.sideEffect !== sideEffect)
      throw new Error(`internal: tool ${name} declared as ${known.sideEffect} and ${sideEffect}`);
    if (!known) this.tools.set(name, { name, sideEffect, description });
    return name;
  }

  /** Writes one item in the current turn and returns its (opaque) id. */
  note(origin: DraftItem['origin'], kind: DraftItem['kind'], content: string, extra: Partial<DraftItem> = {}): string {
    const id = this.opaque('i');
    this.items.push({ id, turn: this.current, time: this.timeOf(this.current), origin, kind, content, ...extra });
    const piece = `${this.unit ?? ''}@${this.current}`;
    if (!this.ranks.has(piece)) this.ranks.set(piece, this.orderStream ? this.orderStream.next() : this.ranks.size);
    this.rankOf.set(id, this.ranks.get(piece)!);
    if (this.unit !== undefined) {
      const list = this.byUnit.get(this.unit) ?? [];
      list.push(id);
      this.byUnit.set(this.unit, list);
    }
    return id;
  }

  /**
   * Writes copies of items drafted by another builder in the current turn, with fresh ids; a call and its result
   * keep their pairing under a fresh call id. Their tools must be declared here first.
   */
  copy(drafts: readonly DraftItem[]): string[] {
    const callIds = new Map<string, string>();
    return drafts.map(({ id: _id, turn: _turn, time: _time, origin, kind, content, tool, ...rest }) => {
      if (!tool) return this.note(origin, kind, content, rest);
      if (!this.tools.has(tool.name)) throw new Error(`internal: tool ${tool.name} used before it was declared`);
      if (!callIds.has(tool.callId)) callIds.set(tool.callId, this.opaque('k'));
      return this.note(origin, kind, content, { ...rest, tool: { ...tool, callId: callIds.get(tool.callId)! } });
    });
  }

  /**
   * Puts the items in trajectory order: by turn, then by the drawn rank of the piece that wrote them, then as
   * written. Until this runs, items are in the order units wrote them, and a unit opening over several turns has
   * written its later turns before other units wrote theirs.
   */
  arrange(): void {
    const seq = new Map(this.items.map((it, k) => [it.id, k]));
    this.items.sort(
      (a, c) => a.turn - c.turn || this.rankOf.get(a.id)! - this.rankOf.get(c.id)! || seq.get(a.id)! - seq.get(c.id)!,
    );
  }

  /** Removes written items (and their attribution to units): what the composer strikes after the fact. */
  strike(ids: ReadonlySet<string>): void {
    for (let i = this.items.length - 1; i >= 0; i -= 1) if (ids.has(this.items[i]!.id)) this.items.splice(i, 1);
    for (const [unit, list] of this.byUnit)
      this.byUnit.set(
        unit,
        list.filter((id) => !ids.has(id)),
      );
  }

  /** A tool call and its result in the current turn, with opaque ids. */
  call(spec: CallSpec, result: ResultSpec): Pair {
    if (!this.tools.has(spec.tool)) throw new Error(`internal: tool ${spec.tool} used before it was declared`);
    const tool = { name: spec.tool, arguments: spec.arguments, callId: this.opaque('k') };
    const call = this.note('model', 'tool-call', spec.content, {
      tool,
      ...(spec.effects ? { effects: spec.effects } : {}),
    });
    const res = this.note('environment', 'tool-result', result.content, {
      tool,
      status: result.status ?? { state: 'ok' },
      ...(result.source ? { source: result.source } : {}),
      ...(result.covers ? { covers: result.covers } : {}),
      ...(result.flags ? { flags: result.flags } : {}),
    });
    return { call, result: res };
  }

  /** Records what a source holds from a turn on (the world a re-read is checked against). */
  sourceState(identity: string, fromTurn: number, content: string): void {
    const history = this.sources.get(identity) ?? [];
    history.push({ fromTurn, content });
    this.sources.set(identity, history);
  }

  /** Stores bytes durably and returns the pointer a runtime would record. */
  stored(key: string, content: string): DurablePointer {
    this.store.set(key, content);
    return { storeKey: key, contentHash: `sha256:${sha256(content)}` };
  }

  toolList(): ToolDeclaration[] {
    return [...this.tools.values()];
  }

  world() {
    return {
      sources: [...this.sources.entries()].map(([identity, history]) => ({
        identity,
        history: [...history].sort((a, b) => a.fromTurn - b.fromTurn),
      })),
      store: [...this.store.entries()].map(([key, content]) => ({ key, content })),
    };
  }
}
