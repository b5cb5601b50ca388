// Composes one generated fixture: a session with a task, 1-3 prune points, family episodes at controlled positions
// and distances, and generic work between them. Every unit (an episode or a generic step) is written the same way
// whatever its role; a role stream then makes each unit live (a later step needs it) or a decoy (nothing ever
// does), and the share of live units is set so that the removable share of scored candidates comes near the
// requested one. Roles change nothing a policy sees except the later steps of live units, which come after the
// prune points they serve. The oracle is assembled from the live units' claims at each prune point and checked
// (check.ts) before anything is written.
import { byCodeUnit } from '../fixture/canonical.js';
import type { Obligation, Oracle, OraclePoint } from '../fixture/schema.js';
import { TrajectoryBuilder, type DraftItem } from './builder.js';
import { checkClaims } from './check.js';
import {
  claims,
  FAMILY_NAMES,
  NO_CLAIMS,
  ob,
  type Claims,
  type FamilyContext,
  type FamilyInstance,
  type FamilyName,
  type Placement,
} from './family.js';
import { FAMILIES } from './families/index.js';
import { ECHO_PREFIX, ECHO_SHARE, echoStep } from './echo.js';
import { heldText, holds } from './held.js';
import { declareGenericTools, genericStep, genericUse, quotable } from './generic.js';
import { subgoalFrom } from './subgoal.js';
import { DOMAINS } from './payloads/vocab.js';
import { rng, subSeed, type Rng } from './rng.js';
import { READ_TARGET_MAX, READ_TOKENS, sizeClass, type SizeClass } from './size.js';

/**
 * The removable share the main corpus is generated at: the ecology's figure from real sessions (29.5% of active-context
 * tokens are not irreducible; results/ecology/ecology.md), a lower bound. Generator 2.0.0 leaked the label at this
 * share (leak audit: word n-grams AUC 0.68, tool 0.61) and ran the study at 0.60; echoes (./echo.ts) remove that
 * leak, so the study can run at the anchor (see fixtures/generated/README.md).
 */
export const DEFAULT_REMOVABLE_SHARE = 0.3;
/**
 * Generator 5: how many never-quoted echoes of a family (mirrors) each placed instance brings, for the families whose
 * structure leaves removable copies without a line of their own (see the mirrors in `composeFixture`).
 */
export const MIRRORS: Readonly<Partial<Record<FamilyName, number>>> = {
  'immutable-duplicate-read': 2,
  'mutable-reread': 2,
  'superseded-run': 1,
  'transient-state': 1,
};

/** The family name the oracle's episode list gives generic work. */
export const GENERIC_WORK = 'generic-work';

export interface Episode {
  readonly family: FamilyName | typeof GENERIC_WORK;
  readonly role: 'episode' | 'decoy';
  readonly variant: string;
  /** The drawn tag its obligations and work units are named with (`ob-<tag>-...`, `wu-<tag>`). */
  readonly tag: string;
  /** Every item the unit wrote that is in the fixture (a decoy's later step is never written). */
  readonly items: string[];
  /** Episodes only: where it opens, the prune point it is placed before, and when its need falls (or would). */
  readonly start: number;
  readonly point: number;
  readonly needAt: number;
}

export interface Composed {
  readonly id: string;
  /** The fixture as written (flags left to the schema's defaults where false). */
  readonly fixture: Record<string, unknown>;
  readonly oracle: Oracle;
  readonly families: FamilyName[];
  readonly sizeClass: SizeClass['name'];
  readonly items: number;
  /** Each placed family instance, live or decoy, with its items. */
  readonly placements: Episode[];
  /** Every unit: the placed family instances and the generic steps, live or decoy, with their items. */
  readonly units: Episode[];
  /** The removable share asked for and the one reached (removable / scored candidates, over the fixture's points). */
  readonly share: {
    readonly requested: number;
    readonly achieved: number;
    readonly removable: number;
    readonly candidates: number;
  };
  /** The mechanisms each placed family's construction probes. */
  readonly exercises: [FamilyName, readonly string[]][];
}

export function fixtureId(index: number): string {
  return `gen-${String(index).padStart(4, '0')}`;
}

const DISTANCES = { near: [1, 3], mid: [4, 12], far: [13, 80] } as const;

/** Picks the families: the index rotates through all eleven so each is primary in 1/11 of the corpus. */
function pickFamilies(r: Rng, index: number, cls: SizeClass): FamilyName[] {
  const primary = FAMILY_NAMES[index % FAMILY_NAMES.length]!;
  const extra = { small: [0, 2], medium: [1, 3], large: [2, 5], xl: [3, 6] }[cls.name] as [number, number];
  const others = r.sample(
    FAMILY_NAMES.filter((f) => f !== primary),
    r.int(extra[0], extra[1]),
  );
  return [primary, ...others];
}

function place(
  r: Rng,
  instance: FamilyInstance,
  points: readonly number[],
  turns: number,
  reserved: Set<number>,
  needs: Set<number>,
): Placement | undefined {
  for (let attempt = 0; attempt < 80; attempt += 1) {
    // After half the attempts a short session gets the nearest placement that fits instead of none.
    const late = attempt >= 40;
    const point = r.pick(points);
    const band = late
      ? 'near'
      : instance.family === 'dormant-dependency'
        ? 'far'
        : r.pick(['near', 'near', 'mid', 'mid', 'far'] as const);
    const [lo, hi] = DISTANCES[band];
    const distance = r.int(lo, hi);
    const start = point - distance - (instance.span - 1);
    if (start < 1) continue;
    const span = Array.from({ length: instance.span }, (_, i) => start + i);
    if (span.some((t) => reserved.has(t) || needs.has(t) || points.includes(t))) continue;
    const gapBand = late
      ? 'near'
      : instance.family === 'dormant-dependency'
        ? 'mid'
        : r.pick(['near', 'mid', 'far'] as const);
    const needAt = point + r.int(DISTANCES[gapBand][0], DISTANCES[gapBand][1]);
    if (needAt >= turns || points.includes(needAt) || reserved.has(needAt) || span.includes(needAt)) continue;
    for (const t of span) reserved.add(t);
    needs.add(needAt);
    return { start, point, needAt };
  }
  return undefined;
}

/** A unit as written: a family instance or a generic step, with the draw that decides its role. */
interface Unit {
  /** The builder's attribution key: `<key>` for what it opens with, `<key>/use` for its later step. */
  readonly key: string;
  tag: string;
  readonly family: FamilyName | typeof GENERIC_WORK;
  variant: string;
  /** Uniform in [0, 1) from the role stream: the units with the smallest draws are the live ones. */
  readonly draw: number;
  readonly instance?: FamilyInstance;
  readonly at: Placement;
  /** Generic work only: its items, and what its later step quotes (none when no line of it is its own). */
  items: string[];
  need?: Obligation;
}

/**
 * When a generic step's need falls: uniform over the turns after the session's last prune point (the closing
 * work: the pull request, the report), drawn the same for every role. Its later step then never sits in a scored
 * context, so the step that quotes live work cannot itself become a removable item only live work produces.
 */
function drawNeed(r: Rng, last: number, turns: number, reserved: ReadonlySet<number>): number {
  let t = r.int(last + 1, Math.max(last + 1, turns));
  while (reserved.has(t)) t += 1;
  return t;
}

export function composeFixture(seed: number, index: number, share: number = DEFAULT_REMOVABLE_SHARE): Composed {
  checkShare(share);
  return composeSession(seed, index)(share);
}

function checkShare(share: number): void {
  if (!(share >= 0 && share <= 1)) throw new Error(`internal: removable share ${share} outside [0, 1]`);
}

/**
 * Fixture `index` of `seed` composed up to its roles: the session (families placed, generic steps and echoes written,
 * the colliding and shadowing work struck) does not depend on the removable share, which only decides how many units
 * are live. Returns what finishes the composition at a share, as composeFixture(seed, index, share) composes it; a
 * finish changes nothing of the session, so one session can be finished at several shares (the corpus tests compose
 * the same fixtures at three).
 */
export function composeSession(seed: number, index: number): (share: number) => Composed {
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

  // Tags name a unit's obligations and work units; they are drawn, like item ids, so they say nothing of the role.
  const tags = root.fork('tags');
  const roles = root.fork('roles');
  const reserved = new Set<number>();
  const needs = new Set<number>();
  const units: Unit[] = [];
  pickFamilies(r, index, cls).forEach((name, j) => {
    const tag = `e${tags.hex(6)}`;
    const instance = FAMILIES[name](root.fork(`family-${j}`), tag, ctx);
    const draw = roles.next();
    const at = place(r, instance, points, turns, reserved, needs);
    if (at) units.push({ key: `f${j}`, tag, family: name, variant: instance.variant, draw, instance, at, items: [] });
  });
  if (units.length === 0) throw new Error(`internal: ${fixtureId(index)} could place no family`);
  const families = units.length;

  const b = new TrajectoryBuilder(
    Date.UTC(2026, r.int(0, 10), r.int(1, 28), r.int(7, 17), r.int(0, 59)),
    root.fork('ids'),
    root.fork('order'),
  );
  declareGenericTools(b);
  const goal = `${r.pick(['Get', 'Make'])} ${service} ${r.pick(['green again on main', 'ready for the Thursday release', 'stable in staging'])}`;
  const taskRule = `do not push to main directly; open a pull request for ${service}`;
  const taskId = b.note('user', 'instruction', `${goal}. Work through what you find; ${taskRule}.`);

  // Events run in turn order. Every unit shares turns: a generic step may fall in any turn, an episode's among them,
  // and the pieces of one turn are laid out in a drawn order (`arrange`). Under generator 3 episodes owned their
  // turns and generic steps piled into the rest, so how many items shared a turn, and their kinds, told the two
  // apart (and with them, mostly, removable from necessary).
  type Event = { turn: number; order: number; run: () => void };
  const events: Event[] = [];
  units.forEach((u, j) => {
    events.push({
      turn: u.at.start,
      order: j,
      run: () => {
        b.writingFor(u.key).at(u.at.start);
        u.instance!.open(b, u.at);
      },
    });
    events.push({
      turn: u.at.needAt,
      order: j,
      run: () => {
        b.writingFor(`${u.key}/use`).at(u.at.needAt);
        u.instance!.use(b, u.at);
      },
    });
  });
  const free = Array.from({ length: turns }, (_, t) => t + 1);
  const gr = root.fork('generic');
  const steps = Math.max(Math.ceil((cls.items[0] - 1) / 2), Math.round((itemTarget - 1 - families * 6) / 1.8));
  const stepTurns = Array.from({ length: steps }, () => gr.pick(free)).sort((a, c) => a - c);
  let estimatedTokens = 0;
  stepTurns.forEach((turn, k) => {
    const step = gr.fork(`step-${k}`);
    const served = points.find((p) => p >= turn);
    const needAt =
      served === undefined ? turn : drawNeed(step.fork('need'), points[points.length - 1]!, turns, reserved);
    const unit: Unit = {
      key: `g${k}`,
      tag: '',
      family: GENERIC_WORK,
      variant: '',
      draw: roles.next(),
      at: { start: turn, point: served ?? turn, needAt },
      items: [],
    };
    units.push(unit);
    events.push({
      turn,
      order: 1000 + k,
      run: () => {
        b.writingFor(unit.key).at(turn);
        const wanted = step.logNormal(cls.readMedian, 0.9, READ_TOKENS.min, READ_TARGET_MAX);
        const room = cls.tokenBudget - estimatedTokens;
        const size = Math.max(READ_TOKENS.min, Math.min(wanted, Math.floor(room / 2)));
        const written =
          (step.chance(ECHO_SHARE) ? echoStep(b, step.fork('echo'), ctx, unit.at) : undefined) ??
          genericStep(b, step, ctx, size);
        unit.variant = written.kind;
        unit.items = written.items;
        for (const id of written.items)
          estimatedTokens += Math.ceil(b.items.find((it) => it.id === id)!.content.length / 3.6);
      },
    });
    if (served === undefined) return;
    events.push({
      turn: needAt,
      order: 2000 + k,
      run: () => {
        // A later step can only need a line one item alone holds; a line another item repeats would make the two
        // a redundant group, not a need of this step. The check is against everything written so far, which is
        // every item in context at any prune point before the need.
        // Another item of the same step counts too: an echo of a duplicate read writes two copies of one text.
        const held = heldText(b.items);
        const picks = unit.items.flatMap((id) => {
          const item = b.items.find((it) => it.id === id)!;
          const s = quotable(item.content)
            .slice(0, 4)
            .find((q) => !held.heldByOther(q, id));
          return s ? [{ id, s }] : [];
        });
        if (picks.length === 0) return;
        b.writingFor(`${unit.key}/use`).at(needAt);
        genericUse(
          b,
          step.fork('use'),
          picks.map((x) => x.s),
        );
        unit.tag = `e${tags.hex(6)}`;
        unit.need = ob(
          `ob-${unit.tag}`,
          'A later step quotes this work: the command as it was run and what it returned.',
          needAt,
          picks.map((x) => x.id),
          picks.map((x) => x.s),
          { question: 'What did this earlier step run and show?', expectedAnswer: picks.map((x) => x.s).join('; ') },
        );
      },
    });
  });
  // Mirrors (generator 5): for each copy a family's structure leaves without a line of its own (a second read, a
  // command run again), one echo of that family, written as any echo is but never quoted, at a turn drawn from the
  // scored part of the session. Such copies are removable whatever their role, so without mirrors their tools' removable
  // items held a line of their own less often than the tools' necessary items do, and a policy reading line
  // uniqueness with the tool's name found the label (docs/choices.md, "Known open defects").
  const sr = root.fork('mirrors');
  const lastPoint = points[points.length - 1]!;
  units
    .filter((u) => u.instance)
    .flatMap((u) => Array.from({ length: MIRRORS[u.family as FamilyName] ?? 0 }, () => u.family as FamilyName))
    .forEach((family, k) => {
      const mirror = sr.fork(`mirror-${k}`);
      const turn = mirror.int(1, lastPoint);
      const unit: Unit = {
        key: `m${k}`,
        tag: '',
        family: GENERIC_WORK,
        variant: '',
        draw: roles.next(),
        at: { start: turn, point: points.find((p) => p >= turn)!, needAt: turn },
        items: [],
      };
      units.push(unit);
      events.push({
        turn,
        order: 3000 + k,
        run: () => {
          b.writingFor(unit.key).at(turn);
          const written = echoStep(b, mirror.fork('echo'), ctx, unit.at, family);
          if (!written) return;
          unit.variant = written.kind;
          unit.items = written.items;
          for (const id of written.items)
            estimatedTokens += Math.ceil(b.items.find((it) => it.id === id)!.content.length / 3.6);
        },
      });
    });
  events.sort((a, c) => a.turn - c.turn || a.order - c.order);
  for (const e of events) e.run();
  b.arrange();
  strikeCollidingEchoes(b, units, points, taskRule);
  strikeShadowingWork(b, units, points[points.length - 1]!);

  return (share: number): Composed => {
    checkShare(share);
    const written = (u: Unit) => b.byUnit.get(u.key) ?? [];
    const later = (u: Unit) => b.byUnit.get(`${u.key}/use`) ?? [];
    const claimsOf = (u: Unit, turn: number): Claims => {
      if (u.instance) return u.instance.claimsAt(turn, u.at);
      if (!u.need || turn < u.at.start || turn >= u.need.neededAtTurn) return NO_CLAIMS;
      return claims({ downstream: [u.need], necessary: u.need.needs.itemIds, rationale: '' });
    };
    // Units that can be live, in role-draw order: making the first m of them live sets the removable share.
    const candidates = units.filter((u) => u.instance || u.need).sort((a, c) => a.draw - c.draw);
    const liveWith = (m: number) => new Set<Unit>(candidates.slice(0, m));
    const tally = (live: ReadonlySet<Unit>) => {
      const dropped = new Set(units.filter((u) => !live.has(u)).flatMap(later));
      let removable = 0;
      let total = 0;
      for (const turn of points) {
        const merged = mergeClaims([...live].map((u) => claimsOf(u, turn)));
        const keep = new Set([
          taskId,
          ...merged.necessary,
          ...merged.partial.map((x) => x.itemId),
          ...merged.groups.flatMap((g) => g.items),
        ]);
        for (const it of b.items) {
          if (it.turn > turn || dropped.has(it.id)) continue;
          total += 1;
          if (!keep.has(it.id)) removable += 1;
        }
      }
      return { removable, candidates: total, achieved: total === 0 ? 0 : removable / total };
    };
    // More live units can only keep more, so the share falls as m grows: bisect for the m nearest the request.
    let lo = 0;
    let hi = candidates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tally(liveWith(mid)).achieved > share) lo = mid + 1;
      else hi = mid;
    }
    const near = [lo - 1, lo]
      .filter((m) => m >= 0 && m <= candidates.length)
      .map((m) => ({ m, t: tally(liveWith(m)) }));
    const best = near.reduce((x, y) => (Math.abs(y.t.achieved - share) < Math.abs(x.t.achieved - share) ? y : x));
    const live = liveWith(best.m);
    const dropped = new Set(units.filter((u) => !live.has(u)).flatMap(later));
    const items = b.items.filter((it) => !dropped.has(it.id));
    const turnOf = new Map(items.map((it) => [it.id, it.turn]));

    const prunePoints: Record<string, unknown>[] = [];
    const oraclePoints: OraclePoint[] = [];
    const pr = root.fork('points');
    points.forEach((turn, k) => {
      const id = `p${k + 1}`;
      const all = [...live].map((u) => claimsOf(u, turn));
      const taskOb: Obligation = {
        id: 'ob-task',
        description: "The user's standing rule for this session.",
        neededAtTurn: turn,
        needs: { itemIds: [taskId], strings: [taskRule] },
        pointerSatisfies: false,
        rereadSatisfies: false,
        probe: {
          question: 'How may changes reach main?',
          expectedAnswer: 'Only through a pull request, never a direct push.',
        },
      };
      const merged = mergeClaims(all);
      const context = items.filter((it) => it.turn <= turn);
      const necessary = new Set([taskId, ...merged.necessary]);
      checkClaims({
        where: `${fixtureId(index)} at ${id}`,
        claims: merged,
        obligations: [taskOb, ...merged.visible, ...merged.downstream],
        context,
        necessary,
        turnOf,
      });
      const grouped = new Set(merged.groups.flatMap((g) => g.items));
      const partial = new Set(merged.partial.map((x) => x.itemId));
      const contextTokens = context.reduce((s, it) => s + Math.ceil(it.content.length / 3.6), 0);
      const visible = {
        pinned: merged.pinned,
        protectedTools: merged.protectedTools,
        obligations: [taskOb, ...merged.visible],
        pendingSteps: merged.pendingSteps,
        workUnits: merged.workUnits,
      };
      prunePoints.push({
        id,
        turn,
        time: b.timeOf(turn),
        budgetTokens: Math.max(1, Math.round(contextTokens * (0.25 + pr.next() * 0.5))),
        taskBoundary: pr.chance(0.4),
        subgoal: subgoalFrom(goal, visible),
        visible,
        downstream: merged.downstream,
      });
      oraclePoints.push({
        prunePoint: id,
        removable: context.map((it) => it.id).filter((x) => !necessary.has(x) && !grouped.has(x) && !partial.has(x)),
        partial: merged.partial,
        redundantGroups: merged.groups,
        rationale: [
          ...all.map((c) => c.rationale).filter(Boolean),
          'Decoy episodes and generic work that no later step quotes feed nothing later; live generic work is quoted by a later step until its need falls.',
          'The task statement holds the standing rule.',
        ].join(' '),
      });
    });

    const episodes: Episode[] = units.flatMap((u) => {
      const own = [...written(u), ...(live.has(u) ? later(u) : [])];
      return own.length === 0
        ? []
        : [
            {
              family: u.family,
              role: live.has(u) ? ('episode' as const) : ('decoy' as const),
              variant: u.variant,
              tag: u.tag,
              items: own,
              ...u.at,
            },
          ];
    });
    const placements = episodes.filter((e) => e.family !== GENERIC_WORK);
    const familyNames = [...new Set(units.flatMap((u) => (u.instance ? [u.instance.family] : [])))].sort(byCodeUnit);
    const exercises = [...new Set(units.flatMap((u) => u.instance?.exercises ?? []))].sort(byCodeUnit);
    const layout = units
      .filter((u) => u.instance)
      .map(
        (u) =>
          `${u.instance!.family} (${u.instance!.variant}) opens at turn ${u.at.start}, ${u.at.point - (u.at.start + u.instance!.span - 1)} turns before the prune point at turn ${u.at.point}; need drawn at turn ${u.at.needAt}`,
      )
      .join('; ');
    const fixtureIdText = fixtureId(index);
    const achieved = best.t;
    const fixture = {
      schemaVersion: 1,
      id: fixtureIdText,
      title: `Generated ${cls.name} session on ${service}: ${familyNames.join(', ')}`,
      description: `Generated by the prunelab corpus generator (seed ${seed}, index ${index}), ${cls.name} size class, ${items.length} items over ${turns} turns. Removable share requested ${share.toFixed(2)}, reached ${achieved.achieved.toFixed(3)} (${achieved.removable} of ${achieved.candidates} scored candidates). Layout: ${layout}. Which episodes and generic steps a later step needs is in the oracle, not here.`,
      exercises,
      families: familyNames,
      tools: b.toolList().sort((a, c) => byCodeUnit(a.name, c.name)),
      items,
      world: b.world(),
      prunePoints,
    };
    return {
      id: fixtureIdText,
      fixture,
      families: familyNames,
      sizeClass: cls.name,
      items: items.length,
      oracle: {
        schemaVersion: 1,
        fixtureId: fixtureIdText,
        points: oraclePoints,
        episodes: episodes.map((e) => ({ family: e.family, role: e.role, items: e.items })),
      },
      placements,
      units: episodes,
      share: { requested: share, ...achieved },
      exercises: units.flatMap((u) =>
        u.instance ? [[u.instance.family, u.instance.exercises] as [FamilyName, readonly string[]]] : [],
      ),
    };
  };
}

/**
 * An echo draws from the same pools as the family it echoes, so it can write a string a family's obligation needs
 * (a rule, a measurement); the family's item would then no longer be that string's only holder and would not be
 * counterfactually necessary. Such an echo is struck from the session whole, with its later step, before roles are
 * drawn, so it is neither live nor a decoy. Striking only removes holders, so every other unit's quotes stay its own.
 */
function strikeCollidingEchoes(b: TrajectoryBuilder, units: Unit[], points: readonly number[], taskRule: string): void {
  const needed = [
    taskRule,
    ...units.flatMap((u) =>
      u.instance
        ? points.flatMap((t) => {
            const c = u.instance!.claimsAt(t, u.at);
            return [...c.visible, ...c.downstream].flatMap((o) => o.needs.strings);
          })
        : [],
    ),
  ];
  const struck = new Set<string>();
  for (const u of units) {
    if (u.instance || !u.variant.startsWith(ECHO_PREFIX)) continue;
    const own = b.items.filter((it) => u.items.includes(it.id));
    if (!own.some((it) => needed.some((s) => holds(it, s)))) continue;
    for (const id of [...(b.byUnit.get(u.key) ?? []), ...(b.byUnit.get(`${u.key}/use`) ?? [])]) struck.add(id);
    u.items = [];
    u.need = undefined;
  }
  if (struck.size > 0) b.strike(struck);
}

/**
 * Generator 5. A later step quotes only a line one item holds, so an item in a scored context that holds no line of
 * its own is never needed: if such items came mostly from some tools (a generic step that repeats a command an
 * episode runs later, an echo of a note a family writes again), a policy reading line uniqueness and the tool's name
 * would find the label (docs/choices.md, "Known open defects"). Two passes over what sits in scored contexts (items
 * up to the last prune point), each striking generic units whole, with their later steps, before roles are drawn:
 * from the last unit back, a generic unit one of whose items holds no line no other item holds (so of two equal
 * steps the later goes and the earlier keeps its line); then, for each family item that still holds no line of its
 * own, the generic units that alone share one of its lines with it, so the family item has that line to itself
 * again. What is left without a line of its own is the families' own structure (a second copy of a read, a command
 * run again). Striking only removes holders, so every other unit's quotes stay its own.
 */
function strikeShadowingWork(b: TrajectoryBuilder, units: Unit[], lastPoint: number): void {
  // The index of the scored items alone: a line that only a later step holds (the quote of a need past the last point)
  // is then turned away by its table instead of searched for through every item.
  const held = heldText(b.items.filter((it) => it.turn <= lastPoint));
  const struck = new Set<string>();
  // Nothing is struck from b.items until the end, so its items can be found by id once (the first of an id, as find).
  const byId = new Map<string, DraftItem>();
  for (const it of b.items) if (!byId.has(it.id)) byId.set(it.id, it);
  const scored = (id: string) => {
    const it = byId.get(id);
    return it !== undefined && it.turn <= lastPoint ? it : undefined;
  };
  /** Whether `o` is another item in a scored context, not struck, that holds the line. */
  const other = (o: DraftItem, line: string, id: string) =>
    o.id !== id && o.turn <= lastPoint && !struck.has(o.id) && holds(o, line);
  /**
   * Every such item: none when the index's table says no other item holds the line. The index's own search over every
   * item is not made: whenever the table lets a line through, the search here, over a subset of them, answers alone.
   */
  const holders = (line: string, id: string) =>
    held.mayBeHeldByOther(line, id) ? b.items.filter((o) => other(o, line, id)) : [];
  const ownLine = (id: string) => {
    const it = scored(id);
    return (
      it === undefined ||
      quotable(it.content).some((q) => !held.mayBeHeldByOther(q, id) || !b.items.some((o) => other(o, q, id)))
    );
  };
  const strike = (u: Unit) => {
    for (const id of [...(b.byUnit.get(u.key) ?? []), ...(b.byUnit.get(`${u.key}/use`) ?? [])]) struck.add(id);
    u.items = [];
    u.need = undefined;
  };
  const generic = units.filter((u) => !u.instance && u.items.length > 0);
  const unitOf = new Map<string, Unit>();
  for (const u of generic) for (const id of u.items) unitOf.set(id, u);
  for (const u of [...generic].sort((a, c) => c.at.start - a.at.start || (a.key < c.key ? 1 : -1)))
    if (!u.items.every(ownLine)) strike(u);
  for (const u of units) {
    if (!u.instance) continue;
    for (const id of b.byUnit.get(u.key) ?? []) {
      const it = scored(id);
      if (!it || struck.has(id) || ownLine(id)) continue;
      for (const q of quotable(it.content)) {
        const others = holders(q, id);
        const work = others.map((o) => unitOf.get(o.id));
        if (work.every((w) => w !== undefined)) {
          for (const w of new Set(work)) strike(w!);
          break;
        }
      }
    }
  }
  if (struck.size > 0) b.strike(struck);
}

function mergeClaims(list: readonly Claims[]): Claims {
  const cat = <K extends keyof Claims>(k: K) =>
    list.flatMap((c) => c[k] as unknown as unknown[]) as unknown as Claims[K];
  return {
    visible: cat('visible'),
    downstream: cat('downstream'),
    necessary: cat('necessary'),
    partial: cat('partial'),
    groups: cat('groups'),
    recoverable: cat('recoverable'),
    pinned: cat('pinned'),
    protectedTools: cat('protectedTools'),
    pendingSteps: cat('pendingSteps'),
    workUnits: cat('workUnits'),
    rationale: '',
  };
}
