// Composes one generated fixture: a session with a task, 1-3 prune points, several family episodes at controlled
// positions and distances, and filler work between them. The oracle is assembled from the families' claims at
// each prune point (everything in context that no claim keeps is removable, filler included), then checked
// against invariants that would catch a family whose claims contradict its own obligations.
import { byCodeUnit } from '../fixture/canonical.js';
import type { Obligation, Oracle, OraclePoint } from '../fixture/schema.js';
import { TrajectoryBuilder, type DraftItem } from './builder.js';
import { FAMILY_NAMES, type Claims, type FamilyContext, type FamilyInstance, type FamilyName, type Placement } from './family.js';
import { FAMILIES } from './families/index.js';
import { declareFillerTools, filler } from './filler.js';
import { DOMAINS } from './payloads/vocab.js';
import { rng, subSeed, type Rng } from './rng.js';
import { READ_TARGET_MAX, READ_TOKENS, sizeClass, type SizeClass } from './size.js';

export interface Composed {
  readonly id: string;
  /** The fixture as written (flags left to the schema's defaults where false). */
  readonly fixture: Record<string, unknown>;
  readonly oracle: Oracle;
  readonly families: FamilyName[];
  readonly sizeClass: SizeClass['name'];
  readonly items: number;
  /** Each placed episode; its items' ids start with `<prefix>-`. */
  readonly placements: { family: FamilyName; variant: string; prefix: string; start: number; point: number; needAt: number }[];
  /** The mechanisms each placed family's construction probes. */
  readonly exercises: [FamilyName, readonly string[]][];
}

export function fixtureId(index: number): string {
  return `gen-${String(index).padStart(4, '0')}`;
}

interface Placed { readonly instance: FamilyInstance; readonly at: Placement; readonly prefix: string }

const DISTANCES = { near: [1, 3], mid: [4, 12], far: [13, 80] } as const;

/** Picks the families: the index rotates through all eleven so each is primary in 1/11 of the corpus. */
function pickFamilies(r: Rng, index: number, cls: SizeClass): FamilyName[] {
  const primary = FAMILY_NAMES[index % FAMILY_NAMES.length]!;
  const extra = { small: [0, 2], medium: [1, 3], large: [2, 5], xl: [3, 6] }[cls.name] as [number, number];
  const others = r.sample(FAMILY_NAMES.filter((f) => f !== primary), r.int(extra[0], extra[1]));
  return [primary, ...others];
}

function place(r: Rng, instance: FamilyInstance, points: readonly number[], turns: number, reserved: Set<number>, needs: Set<number>): Placement | undefined {
  for (let attempt = 0; attempt < 80; attempt += 1) {
    // After half the attempts a short session gets the nearest placement that fits instead of none.
    const late = attempt >= 40;
    const point = r.pick(points);
    const band = late ? 'near' : instance.family === 'dormant-dependency' ? 'far' : r.pick(['near', 'near', 'mid', 'mid', 'far'] as const);
    const [lo, hi] = DISTANCES[band];
    const distance = r.int(lo, hi);
    const start = point - distance - (instance.span - 1);
    if (start < 1) continue;
    const span = Array.from({ length: instance.span }, (_, i) => start + i);
    if (span.some((t) => reserved.has(t) || needs.has(t) || points.includes(t))) continue;
    const gapBand = late ? 'near' : instance.family === 'dormant-dependency' ? 'mid' : r.pick(['near', 'mid', 'far'] as const);
    const needAt = point + r.int(DISTANCES[gapBand][0], DISTANCES[gapBand][1]);
    if (needAt >= turns || points.includes(needAt) || reserved.has(needAt) || span.includes(needAt)) continue;
    for (const t of span) reserved.add(t);
    needs.add(needAt);
    return { start, point, needAt };
  }
  return undefined;
}

export function composeFixture(seed: number, index: number): Composed {
  const root = rng(subSeed(seed, index));
  const r = root.fork('layout');
  const cls = sizeClass(root.fork('size'));
  const domain = r.pick(DOMAINS);
  const service = `${domain}-${r.pick(['api', 'worker', 'gateway', 'sync'])}`;
  const ctx: FamilyContext = { domain, service, repo: `repo:${service}`, workspace: `workspace:${service}` };
  const itemTarget = r.int(cls.items[0], cls.items[1]);
  const turns = Math.max(14, Math.round(itemTarget / 2.2));
  const pointCount = r.int(1, 3);
  const points: number[] = [];
  for (let k = 0; k < pointCount; k += 1) {
    const ideal = Math.round((turns * (k + 1)) / (pointCount + 1)) + r.int(-2, 2);
    const t = Math.min(turns - 3, Math.max(6, ideal));
    if (!points.includes(t)) points.push(t);
  }
  points.sort((a, b) => a - b);

  const reserved = new Set<number>();
  const needs = new Set<number>();
  const placed: Placed[] = [];
  pickFamilies(r, index, cls).forEach((name, j) => {
    const prefix = `f${j + 1}`;
    const instance = FAMILIES[name](root.fork(`family-${j}`), prefix, ctx);
    const at = place(r, instance, points, turns, reserved, needs);
    if (at) placed.push({ instance, at, prefix });
  });
  if (placed.length === 0) throw new Error(`internal: ${fixtureId(index)} could place no family`);

  const b = new TrajectoryBuilder(Date.UTC(2026, r.int(0, 10), r.int(1, 28), r.int(7, 17), r.int(0, 59)));
  declareFillerTools(b);
  const goal = `${r.pick(['Get', 'Make'])} ${service} ${r.pick(['green again on main', 'ready for the Thursday release', 'stable in staging'])}`;
  const taskRule = `do not push to main directly; open a pull request for ${service}`;
  b.note('u-task', 'user', 'instruction', `${goal}. Work through what you find; ${taskRule}.`);

  // Events run in turn order; family episodes own their turns, needs and filler share theirs.
  type Event = { turn: number; order: number; run: () => void };
  const events: Event[] = [];
  placed.forEach((p, j) => {
    events.push({ turn: p.at.start, order: j, run: () => { b.at(p.at.start); p.instance.open(b, p.at); } });
    events.push({ turn: p.at.needAt, order: j, run: () => { b.at(p.at.needAt); p.instance.use(b, p.at); } });
  });
  const free = Array.from({ length: turns }, (_, t) => t + 1).filter((t) => !reserved.has(t));
  const fr = root.fork('filler');
  const steps = Math.max(Math.ceil((cls.items[0] - 1) / 2), Math.round((itemTarget - 1 - placed.length * 6) / 1.8));
  const fillerTurns = Array.from({ length: steps }, () => fr.pick(free)).sort((a, c) => a - c);
  let estimatedTokens = 0;
  fillerTurns.forEach((turn, k) => {
    events.push({
      turn, order: 1000 + k, run: () => {
        b.at(turn);
        const step = fr.fork(`step-${k}`);
        const wanted = step.logNormal(cls.readMedian, 0.9, READ_TOKENS.min, READ_TARGET_MAX);
        const room = cls.tokenBudget - estimatedTokens;
        const size = Math.max(READ_TOKENS.min, Math.min(wanted, Math.floor(room / 2)));
        const before = b.items.length;
        filler(b, step, ctx, `x${k + 1}`, size);
        for (const item of b.items.slice(before)) estimatedTokens += Math.ceil(item.content.length / 3.6);
      },
    });
  });
  events.sort((a, c) => a.turn - c.turn || a.order - c.order);
  for (const e of events) e.run();

  const turnOf = new Map(b.items.map((it) => [it.id, it.turn]));
  const prunePoints: Record<string, unknown>[] = [];
  const oraclePoints: OraclePoint[] = [];
  const pr = root.fork('points');
  points.forEach((turn, k) => {
    const id = `p${k + 1}`;
    const all = placed.map((p) => ({ p, c: p.instance.claimsAt(turn, p.at) }));
    const taskOb: Obligation = {
      id: 'ob-task', description: 'The user\'s standing rule for this session.', neededAtTurn: turn,
      needs: { itemIds: ['u-task'], strings: [taskRule] }, pointerSatisfies: false, rereadSatisfies: false,
      probe: { question: 'How may changes reach main?', expectedAnswer: 'Only through a pull request, never a direct push.' },
    };
    const merged = mergeClaims(all.map((x) => x.c));
    const context = b.items.filter((it) => it.turn <= turn).map((it) => it.id);
    const necessary = new Set(['u-task', ...merged.necessary]);
    checkClaims(`${fixtureId(index)} at ${id}`, merged, [taskOb, ...merged.visible], context, necessary, b.items, turnOf);
    const grouped = new Set(merged.groups.flatMap((g) => g.items));
    const partial = new Set(merged.partial.map((x) => x.itemId));
    const next = all.filter((x) => x.c.downstream.length > 0 || x.c.visible.length > 0).sort((a, c) => a.p.at.needAt - c.p.at.needAt)[0];
    const contextTokens = b.items.filter((it) => it.turn <= turn).reduce((s, it) => s + Math.ceil(it.content.length / 3.6), 0);
    prunePoints.push({
      id, turn, time: b.timeOf(turn),
      budgetTokens: Math.max(1, Math.round(contextTokens * (0.25 + pr.next() * 0.5))),
      taskBoundary: pr.chance(0.4),
      subgoal: next ? next.p.instance.subgoal() : goal,
      visible: {
        pinned: merged.pinned, protectedTools: merged.protectedTools, obligations: [taskOb, ...merged.visible],
        pendingSteps: merged.pendingSteps, workUnits: merged.workUnits,
      },
      downstream: merged.downstream,
    });
    oraclePoints.push({
      prunePoint: id,
      removable: context.filter((x) => !necessary.has(x) && !grouped.has(x) && !partial.has(x)),
      partial: merged.partial,
      redundantGroups: merged.groups,
      rationale: [...all.map((x) => x.c.rationale).filter(Boolean), 'Filler work (reads, searches, edits, passing runs, notes) feeds no later step.', 'The task statement holds the standing rule.'].join(' '),
    });
  });

  const families = [...new Set(placed.map((p) => p.instance.family))].sort(byCodeUnit);
  const exercises = [...new Set(placed.flatMap((p) => p.instance.exercises))].sort(byCodeUnit);
  const layout = placed.map((p) => `${p.instance.family} (${p.instance.variant}) opens at turn ${p.at.start}, ${p.at.point - (p.at.start + p.instance.span - 1)} turns before the prune point at turn ${p.at.point}; needed at turn ${p.at.needAt}`).join('; ');
  const fixtureIdText = fixtureId(index);
  const fixture = {
    schemaVersion: 1,
    id: fixtureIdText,
    title: `Generated ${cls.name} session on ${service}: ${families.join(', ')}`,
    description: `Generated by the prunelab corpus generator (seed ${seed}, index ${index}), ${cls.name} size class, ${b.items.length} items over ${turns} turns. Layout: ${layout}. Everything else is filler whose oracle status (removable) follows from construction.`,
    exercises,
    families,
    tools: b.toolList().sort((a, c) => byCodeUnit(a.name, c.name)),
    items: b.items,
    world: b.world(),
    prunePoints,
  };
  return {
    id: fixtureIdText, fixture, families, sizeClass: cls.name, items: b.items.length,
    oracle: { schemaVersion: 1, fixtureId: fixtureIdText, points: oraclePoints },
    placements: placed.map((p) => ({ family: p.instance.family, variant: p.instance.variant, prefix: p.prefix, ...p.at })),
    exercises: placed.map((p) => [p.instance.family, p.instance.exercises]),
  };
}

function mergeClaims(list: readonly Claims[]): Claims {
  const cat = <K extends keyof Claims>(k: K) => list.flatMap((c) => c[k] as unknown as unknown[]) as unknown as Claims[K];
  return {
    visible: cat('visible'), downstream: cat('downstream'), necessary: cat('necessary'), partial: cat('partial'), groups: cat('groups'),
    recoverable: cat('recoverable'), pinned: cat('pinned'), protectedTools: cat('protectedTools'), pendingSteps: cat('pendingSteps'),
    workUnits: cat('workUnits'), rationale: '',
  };
}

/** A family whose claims contradict themselves is a generator bug: stop rather than write a wrong oracle. */
function checkClaims(where: string, c: Claims, visible: readonly Obligation[], context: readonly string[], necessary: ReadonlySet<string>, items: readonly DraftItem[], turnOf: ReadonlyMap<string, number>): void {
  const fail = (problem: string): never => { throw new Error(`internal: generator claims at ${where}: ${problem}`); };
  const inContext = new Set(context);
  const seen = new Map<string, string>();
  const claim = (id: string, as: string) => {
    if (!inContext.has(id)) fail(`${as} item ${id} is not in context`);
    const before = seen.get(id);
    if (before) fail(`item ${id} is both ${before} and ${as}`);
    seen.set(id, as);
  };
  for (const id of necessary) claim(id, 'necessary');
  for (const p of c.partial) claim(p.itemId, 'partial');
  for (const g of c.groups) {
    if (g.items.length < 2) fail('a redundant group of fewer than two copies');
    for (const id of g.items) claim(id, 'a redundant copy');
  }
  const recoverable = new Set(c.recoverable);
  const byId = new Map(items.map((it) => [it.id, it]));
  for (const o of [...visible, ...c.downstream]) {
    for (const id of o.needs.itemIds) {
      if (!seen.has(id) && !(recoverable.has(id) && (o.pointerSatisfies || o.rereadSatisfies))) fail(`obligation ${o.id} needs ${id}, which no claim keeps`);
      if ((turnOf.get(id) ?? Infinity) > o.neededAtTurn) fail(`obligation ${o.id} needs ${id} before it exists`);
    }
    for (const s of o.needs.strings) {
      const holds = o.needs.itemIds.some((id) => {
        const it = byId.get(id);
        const status = it?.status && it.status.state === 'error' ? `${it.status.message}\n${Object.values(it.status.fields ?? {}).join('\n')}` : '';
        return (it?.content ?? '').includes(s) || status.includes(s);
      });
      if (!holds) fail(`obligation ${o.id} needs "${s}", which none of its items holds`);
    }
  }
}
