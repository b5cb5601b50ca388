// Rung 1, source identity: two reads of one source in one recorded state. The state is established by a known
// version (content hash, git sha, etag) or, failing that, by the source being immutable; a mutable source read with
// an UNKNOWN version cannot be shown to be the same state, however alike the reads look.
import { versionLabel } from '../../fixture/canonical.js';
import type { Source } from '../../fixture/schema.js';
import type { ViewItem } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import type { Finding } from '../types.js';

export const SOURCE_IDENTITY = 'source-identity';

interface Read {
  readonly item: ViewItem;
  /** A source whose identity is known (not UNKNOWN). */
  readonly source: Source;
}

function asRead(item: ViewItem): Read | undefined {
  const source = item.source;
  if (item.kind !== 'tool-result' || item.status?.state !== 'ok' || !source || source.identity === 'UNKNOWN') return undefined;
  return { item, source };
}

/**
 * The recorded state a read observed, or undefined when it cannot be established. A known version wins over the
 * mutability flag because it is evidence about this read, while the flag is a claim about the source in general.
 */
function stateKey(source: Source): string | undefined {
  if (source.version !== 'UNKNOWN') return versionLabel(source.version);
  if (source.mutable === false) return 'immutable';
  return undefined;
}

function describeState(source: Source): string {
  if (source.version !== 'UNKNOWN') return `${source.version.kind} ${source.version.value}`;
  return 'its one immutable state';
}

function where(source: Source): string {
  return source.selector === undefined ? source.identity : `${source.identity} (${source.selector})`;
}

export function sourceIdentity(): ConfiguredMechanism {
  return {
    rule: SOURCE_IDENTITY,
    rung: 1,
    version: '1.0.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const reads = view.items.map(asRead);
      const findings: Finding[] = [];
      reads.forEach((read, index) => {
        if (!read || !wanted.has(read.item.id)) return;
        const later = reads
          .slice(index + 1)
          .filter((other): other is Read => other !== undefined)
          .filter((other) => other.source.identity === read.source.identity && other.source.selector === read.source.selector);
        if (later.length === 0) return;
        const key = stateKey(read.source);
        if (key === undefined) {
          findings.push({
            itemId: read.item.id,
            outcome: 'abstain',
            reason:
              `cannot establish same source state: ${read.item.id} reads ${where(read.source)} with UNKNOWN version ` +
              `(mutable: ${String(read.source.mutable)}) and ${later[later.length - 1]?.item.id} reads it later`,
          });
          return;
        }
        const sameState = later.filter((other) => stateKey(other.source) === key);
        const survivor = sameState[sameState.length - 1];
        if (survivor) {
          findings.push({
            itemId: read.item.id,
            outcome: 'eligible',
            reason:
              `reads ${where(read.source)} at ${describeState(read.source)}, as does ${survivor.item.id}, ` +
              'the latest read of that state, which stays',
          });
          return;
        }
        // A later read whose state is unknown might be this very state; only reads of known other states are
        // established as different, and those leave this read the survivor of its own state.
        const unknown = later.filter((other) => stateKey(other.source) === undefined);
        const last = unknown[unknown.length - 1];
        if (last) {
          findings.push({
            itemId: read.item.id,
            outcome: 'abstain',
            reason:
              `cannot establish same source state: the later read ${last.item.id} of ${where(read.source)} has ` +
              `UNKNOWN version (mutable: ${String(last.source.mutable)})`,
          });
        }
      });
      return findings;
    },
  };
}
