// Rung 1, source identity: two reads of the same view of one recorded source state. The view is the tool and its
// selector (a line range, a symbol listing, a search, a truncated read are different views of one version); the
// state is established by a version that says what it hashes, or by the source being immutable. A mutable source
// read with an UNKNOWN version, or pinned only by a commit, cannot be shown to be the same state; a label that hashes
// nothing read (an etag, an agent-writes count, immutability, a commit of an immutable source) pairs only reads that
// show the same bytes. The read that
// stays must also show what the removed one showed (`showsAllOf`: each of its texts whole within one of the
// survivor's, each other block among the survivor's): a runtime's "File unchanged since last read" stub carries the
// state's hash and shows none of its content, so the full read stays beside it.
import type { Source } from '../../fixture/schema.js';
import { firstAt, transitionsBetween } from '../../fixture/effect-index.js';
import type { ViewItem } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { showsAllOf } from '../held-text.js';
import { renderingKey } from '../identity.js';
import { describeView, truncatedRead, viewKey } from '../read-view.js';
import { stateOf } from '../source-state.js';
import type { Finding } from '../types.js';
import { defineCondition } from '../definition.js';
import { gatedVersion, single } from '../single.js';

export const SOURCE_IDENTITY = 'source-identity';

interface Read {
  readonly item: ViewItem;
  /** A source whose identity is known (not UNKNOWN). */
  readonly source: Source;
  readonly view: string;
}

function asRead(item: ViewItem): Read | undefined {
  const source = item.source;
  if (item.kind !== 'tool-result' || item.status?.state !== 'ok' || !source || source.identity === 'UNKNOWN')
    return undefined;
  return { item, source, view: viewKey(item) };
}

/**
 * Calls that may have written the source between two reads (a failed effect wrote nothing). One the record does not
 * order between them (a batch whose results came back after a read was asked for) may have, so it is named too.
 */
function writesBetween(items: readonly ViewItem[], from: number, to: number, identity: string): string[] {
  return writeEffectsBetween(items, from, to, identity).map(
    (e) => `${e.call.id} (${e.outcome}${e.ordered ? '' : ', not ordered relative to the reads'})`,
  );
}

/** Each call that may lie between two reads once, with its first effect on the source that did not fail, in order. */
function writeEffectsBetween(items: readonly ViewItem[], from: number, to: number, identity: string) {
  const out: ReturnType<typeof transitionsBetween>[number][] = [];
  const named = new Set<ViewItem>();
  for (const effect of transitionsBetween(items, identity, from, to)) {
    if (effect.outcome === 'failed' || named.has(effect.call)) continue;
    named.add(effect.call);
    out.push(effect);
  }
  return out;
}

/** The last of `reads` (in position order) strictly between positions `after` and `before`. */
function lastBetween(reads: readonly Placed[], after: number, before: number): Placed | undefined {
  const last = reads[firstAt(reads, before) - 1];
  return last && last.at > after ? last : undefined;
}

/** The same rendering: every block and the text shown agree. */
const rendersAs = (a: ViewItem, b: ViewItem): boolean => a.content === b.content && renderingKey(a) === renderingKey(b);

/** The last of `reads` strictly between positions `after` and `before` that shows all `item` shows. */
function lastShowing(reads: readonly Placed[], after: number, before: number, item: ViewItem): Placed | undefined {
  for (let i = firstAt(reads, before) - 1; i >= 0 && reads[i]!.at > after; i--)
    if (showsAllOf(reads[i]!.other.item, item)) return reads[i];
  return undefined;
}

/** The last of `reads` strictly between positions `after` and `before` that shows the same bytes as `item`. */
function lastRendering(reads: readonly Placed[], after: number, before: number, item: ViewItem): Placed | undefined {
  for (let i = firstAt(reads, before) - 1; i >= 0 && reads[i]!.at > after; i--)
    if (rendersAs(reads[i]!.other.item, item)) return reads[i];
  return undefined;
}

interface Placed {
  readonly other: Read;
  readonly at: number;
}

/**
 * The reads of one source through one view, in order, with the last read of each established state and the last
 * read whose state is unknown: a read's later twins are the group's reads after it, and the last of them with a
 * property is the group's last with it whenever that one comes after the read.
 */
interface Twins {
  readonly reads: Placed[];
  /** The reads of each established state, in order: the last is the state's latest read. */
  readonly ofState: Map<string, Placed[]>;
  lastUnknown?: Placed;
}

export function sourceIdentity(): ConfiguredMechanism {
  return {
    rule: SOURCE_IDENTITY,
    rung: 1,
    version: '2.8.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const items = view.items;
      const reads = items.map(asRead);
      // Only the same view of the same source is a candidate twin: another view shows other lines of one version.
      const groups = new Map<string, Twins>();
      const groupOf = (read: Read): Twins => groups.get(`${read.source.identity}\u0000${read.view}`)!;
      reads.forEach((other, at) => {
        if (!other) return;
        const key = `${other.source.identity}\u0000${other.view}`;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { reads: [], ofState: new Map() }));
        const placed = { other, at };
        group.reads.push(placed);
        const state = stateOf(other.item, other.source);
        if (state.kind === 'none') group.lastUnknown = placed;
        else {
          const same = group.ofState.get(state.key);
          if (same) same.push(placed);
          else group.ofState.set(state.key, [placed]);
        }
      });
      const findings: Finding[] = [];
      reads.forEach((read, index) => {
        if (!read || !wanted.has(read.item.id)) return;
        const group = groupOf(read);
        const last = group.reads[group.reads.length - 1]!;
        if (last.at <= index) return;
        const after = (x: Placed | undefined): Placed | undefined => (x && x.at > index ? x : undefined);
        const where = `${read.source.identity} (${describeView(read.item)})`;
        const state = stateOf(read.item, read.source);
        if (state.kind === 'none') {
          findings.push({
            itemId: read.item.id,
            outcome: 'abstain',
            reason: `cannot establish same source state: ${state.why}, and ${last.other.item.id} reads the same view later`,
          });
          return;
        }
        const twins = group.ofState.get(state.key)!;
        let survivor = after(twins[twins.length - 1]);
        let beforeWrite = '';
        if (survivor && state.kind === 'pins') {
          // A label that pins the state is contradicted by a write after this read; a twin read before that write
          // still shows the state this one does, and it stays: it is the last read of the state before the write, so
          // it has no twin of its own that this rule could pair it with. A write issued before this read was
          // recorded, its result after the read was asked for, may be after it: no twin is before that write.
          const first = writeEffectsBetween(items, index, survivor.at, read.source.identity)[0];
          const twin = first ? lastBetween(twins, index, first.at) : undefined;
          if (twin) {
            survivor = twin;
            beforeWrite = ` before ${first!.call.id} wrote to ${read.source.identity}`;
          }
        }
        if (survivor) {
          const writesHere = writesBetween(items, index, survivor.at, read.source.identity);
          if (writesHere.length > 0 && state.kind === 'pins') {
            findings.push({
              itemId: read.item.id,
              outcome: 'abstain',
              reason: `cannot establish same source state: ${read.item.id} and ${survivor.other.item.id} both carry ${state.says}, but ${writesHere.join(', ')} between them recorded a write to ${read.source.identity}, which that label does not hash`,
            });
            return;
          }
          // A label that hashes nothing read vouches for the state only as far as the bytes agree: where two reads
          // of one view under it differ, the label missed a change as likely as the tool rendered the same state twice.
          // The latest later twin with the same bytes stays instead, where one does: those bytes are the check.
          const latest = survivor;
          if (state.claim && !rendersAs(read.item, survivor.other.item)) {
            const same = lastRendering(twins, index, survivor.at, read.item);
            if (!same) {
              findings.push({
                itemId: read.item.id,
                outcome: 'abstain',
                reason: `cannot establish same source state: ${read.item.id} and ${survivor.other.item.id} both carry ${state.says}, which hashes nothing read, and what they show differs`,
              });
              return;
            }
            survivor = same;
          }
          // A truncated read shows a part of its scope the selector does not record: two of them are one view only
          // where they show the same bytes, whatever the version says of the whole source.
          if (truncatedRead(read.item) && !rendersAs(read.item, survivor.other.item)) {
            findings.push({
              itemId: read.item.id,
              outcome: 'abstain',
              reason: `cannot establish the same view: ${read.item.id} and ${survivor.other.item.id} are truncated reads of ${read.source.identity}, each showing an unrecorded part of it, and what they show differs`,
            });
            return;
          }
          // The read that stays must show what this one showed: the same state rendered as a stub, or with less of
          // it, is not a copy of it. The latest later twin that shows it stays (it shows what every later twin that
          // shows it does, so none of them pairs it away); where none does, this read is the only one showing it.
          let shows = rendersAs(read.item, survivor.other.item) ? 'same' : showsAllOf(survivor.other.item, read.item);
          if (!shows) {
            const earlier = lastShowing(twins, index, survivor.at, read.item);
            if (!earlier) {
              findings.push({
                itemId: read.item.id,
                outcome: 'abstain',
                reason: `cannot establish that a read which stays shows what ${read.item.id} shows: ${latest.other.item.id} reads ${where} at ${state.says} too${beforeWrite}, but what it shows does not hold ${read.item.id}'s text and blocks whole (a stub, or another rendering of the state), and no read of that view and state between them does`,
              });
              return;
            }
            survivor = earlier;
            shows = rendersAs(read.item, survivor.other.item) ? 'same' : true;
          }
          const writes =
            survivor === latest ? writesHere : writesBetween(items, index, survivor.at, read.source.identity);
          const despite =
            writes.length > 0
              ? ` (the hash is of the bytes read, so the write by ${writes.join(', ')} between them changed nothing they show)`
              : '';
          const weaker = state.weaker ? `; ${state.weaker}` : '';
          const which =
            survivor === latest
              ? `the latest read of that view and state${beforeWrite}`
              : state.claim
                ? `the latest read of that view and state that shows the same bytes (${latest.other.item.id}, later${beforeWrite}, does not; ${state.says} hashes nothing read)`
                : `the latest read of that view and state that shows all ${read.item.id} shows (${latest.other.item.id}, later${beforeWrite}, does not)`;
          const within = shows === 'same' ? '' : `, its text and blocks whole within ${survivor.other.item.id}'s`;
          findings.push({
            itemId: read.item.id,
            outcome: 'eligible',
            reason: `reads ${where} at ${state.says}, as does ${survivor.other.item.id}, ${which}, which stays${within}${despite}${weaker}`,
            reliesOn: [survivor.other.item.id],
          });
          return;
        }
        // A later read whose state is unknown might be this very state; only reads of known other states are
        // established as different, and those leave this read the survivor of its own state.
        const unknown = after(group.lastUnknown);
        if (unknown) {
          const why = stateOf(unknown.other.item, unknown.other.source);
          findings.push({
            itemId: read.item.id,
            outcome: 'abstain',
            reason: `cannot establish same source state: the later read of the same view ${why.kind === 'none' ? why.why : unknown.other.item.id}`,
          });
        }
      });
      return findings;
    },
  };
}

const DESCRIPTION =
  'rung 1: reads of the same view (tool and selector) of one source state, established by a version that hashes the content or an immutable source (a label that hashes nothing read, immutability included, only on the same bytes), where the read that stays shows all the removed one showed (its text and blocks whole; a stub carrying the hash does not); the latest such read stays';

/** Layer A: the mechanism alone behind the protection and regenerability gates. */
export const definition = defineCondition({
  name: SOURCE_IDENTITY,
  layer: 'A',
  rung: 1,
  version: gatedVersion(sourceIdentity().version),
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () => single(sourceIdentity(), { gate: true, upperRisk: false, description: DESCRIPTION }),
});
