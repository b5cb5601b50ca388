// Generic work written in the shape of a family's items: one note or one call with its result, drawn from a
// family's opening as that family's own factory writes it (same tools, payloads, phrasing and flags) but with its
// own draws, then copied into the session as a generic step. Without echoes, at a low removable share, a family's
// own vocabulary (SHOW POOLS, a vault lease, a rejected hypothesis) marks an item as removable: live episodes leave
// most of their items removable (superseded copies, finished sub-steps) while necessary items are mostly live
// generic work. An echo is generic work like any other, live when a later step quotes a line it alone holds and a
// decoy otherwise, so each family's shapes occur on both sides of the label. One piece, not the whole opening: a
// whole opening would bring the family's structure with it (duplicate copies, repeated commands), which is
// removable whatever the role and would carry the same signal into live work.
import { TrajectoryBuilder } from './builder.js';
import { heldText, holds } from './held.js';
import { quotable } from './generic.js';
import type { FamilyContext, FamilyName, Placement } from './family.js';
import { FAMILIES } from './families/index.js';
import { pickWeighted, type Rng } from './rng.js';

/** The share of generic steps written as echoes (the rest are ./generic.ts steps). */
export const ECHO_SHARE = 0.85;

/**
 * How often each family is echoed: in proportion to the removable items its episodes leave in context (measured
 * over 200 fixtures at share 0.30, seed 20261202, before echoes existed), since those are the items whose shapes
 * would otherwise mark the label.
 */
export const ECHO_WEIGHTS: readonly (readonly [FamilyName, number])[] = [
  ['rejected-hypothesis', 40],
  ['completed-subtask', 18],
  ['immutable-duplicate-read', 17],
  ['mutable-reread', 14],
  ['superseded-run', 10],
  ['dormant-dependency', 8],
  ['one-time-secret', 7],
  ['transient-state', 7],
  ['large-reconstructible-read', 6],
  ['failed-call-bulky-input', 3],
  ['stated-once-constraint', 2],
];

/** A generic unit's variant for an echo: the prefix and the family echoed. */
export const ECHO_PREFIX = 'echo:';

/** Family draws an echo tries before it gives up (the composer then writes a plain generic step). */
const ECHO_TRIES = 6;

/**
 * Writes one piece of a family's opening at the builder's current turn, or nothing when no draw gives a piece
 * whose every item has a line no item in the session holds yet: a piece a later step could not quote (a command
 * the session already ran, a second copy of a read) would be removable whatever its role and carry the family's
 * structure into generic work. `only` echoes that family on every try instead of drawing one (./compose.ts's
 * mirrors). Returns the family echoed and the ids written.
 */
export function echoStep(
  b: TrajectoryBuilder,
  r: Rng,
  ctx: FamilyContext,
  at: Placement,
  only?: FamilyName,
): { kind: string; items: string[] } | undefined {
  const held = heldText(b.items);
  for (let attempt = 0; attempt < ECHO_TRIES; attempt += 1) {
    const family = only ?? pickWeighted(r, ECHO_WEIGHTS);
    const scratch = new TrajectoryBuilder(0, r.fork(`ids-${attempt}`));
    FAMILIES[family](r.fork(`family-${attempt}`), `e${r.hex(6)}`, ctx).open(scratch, at);
    const calls = new Map(scratch.items.filter((it) => it.kind === 'tool-call').map((it) => [it.tool!.callId, it]));
    const pieces = scratch.items
      .filter((it) => it.kind !== 'tool-call' && !(it.kind === 'tool-result' && !calls.has(it.tool!.callId)))
      .map((it) => (it.kind === 'tool-result' ? [calls.get(it.tool!.callId)!, it] : [it]))
      .filter((piece) =>
        piece.every((it) =>
          quotable(it.content).some((q) => !held.includes(q) && !piece.some((o) => o !== it && holds(o, q))),
        ),
      );
    if (pieces.length === 0) continue;
    const piece = r.pick(pieces);
    const tool = piece[0]!.tool;
    if (tool) {
      const declared = scratch.toolList().find((t) => t.name === tool.name)!;
      b.tool(declared.name, declared.sideEffect, declared.description ?? declared.name);
    }
    const pointer = piece[piece.length - 1]!.flags?.durablePointer;
    if (pointer) b.stored(pointer.storeKey, scratch.world().store.find((s) => s.key === pointer.storeKey)!.content);
    return { kind: `${ECHO_PREFIX}${family}`, items: b.copy(piece) };
  }
  return undefined;
}
