// The state of a source an observation records (rungs 1 and 2): what its version label establishes about the state
// it saw. Rung 1 pairs reads of one established state; rung 2 lets a newer observation of the state an older one
// recorded replace it only where the newer shows all the older showed, since nothing changed what the older showed.
import type { Source } from '../fixture/schema.js';
import type { ViewItem } from '../fixture/view.js';

/**
 * What an observation's version establishes about the state it saw. `hashes`: the version hashes this source's
 * content as read, so equal labels are equal bytes whatever happened in between. `pins`: a claim about the source (a
 * commit of an immutable source, an etag validator, immutability itself, the importer's count of agent writes) that a
 * recorded write to the source between two reads contradicts. `none`: no state can be established, and why.
 */
export type State = Established | { readonly kind: 'none'; readonly why: string };

export interface Established {
  readonly kind: 'hashes' | 'pins';
  /** Equal keys, one established state of the source. */
  readonly key: string;
  readonly says: string;
  readonly weaker?: string;
  /**
   * The label is someone's claim about the state (a server's validator, the importer's count of agent writes, a
   * declaration that the source is immutable, alone or with a commit of it) rather than a hash of the bytes read:
   * reads it pairs must then show the same bytes, since bytes that differ are a change the label missed (or a source
   * declared immutable that was not) as much as another rendering.
   */
  readonly claim?: true;
}

/** The state `item`'s version establishes of `source` (the item's own source, passed with its identity known). */
export function stateOf(item: ViewItem, source: Source): State {
  const { version, mutable, identity } = source;
  if (version === 'UNKNOWN') {
    if (mutable === false) return { kind: 'pins', key: 'immutable', says: 'its one immutable state', claim: true };
    return {
      kind: 'none',
      why: `${item.id} reads ${identity} with UNKNOWN version (mutable: ${String(mutable)})`,
    };
  }
  switch (version.kind) {
    case 'content-hash':
      return { kind: 'hashes', key: `content-hash:${version.value}`, says: `content hash ${version.value}` };
    case 'etag':
      return {
        kind: 'pins',
        key: `etag:${version.value}`,
        says: `etag ${version.value} (the server's validator of the representation)`,
        claim: true,
      };
    case 'agent-writes':
      return {
        kind: 'pins',
        key: `agent-writes:${version.value}`,
        says: `agent-writes ${version.value}`,
        weaker:
          'a weaker guarantee than a recorded version: the importer inferred it assuming no writer but the agent touched the source',
        claim: true,
      };
    case 'git-sha':
      if (version.of === 'blob')
        return { kind: 'hashes', key: `git-blob:${version.value}`, says: `git blob ${version.value}` };
      if (mutable === false)
        return {
          kind: 'pins',
          key: `git-commit:${version.value}`,
          says: `commit ${version.value} of an immutable source`,
          claim: true,
        };
      return {
        kind: 'none',
        why: `${item.id} is pinned only by commit ${version.value}, which fixes the committed tree, not the state of mutable source ${identity} (mutable: ${String(mutable)})`,
      };
  }
}

/**
 * The state two observations both record of one source, where they record one: the same identity, and labels that
 * establish a state (not `none`) with equal keys. Undefined where either establishes none, or the states differ.
 */
export function sameState(a: ViewItem, b: ViewItem): Established | undefined {
  if (!a.source || !b.source || a.source.identity !== b.source.identity || a.source.identity === 'UNKNOWN')
    return undefined;
  const state = stateOf(a, a.source);
  if (state.kind === 'none') return undefined;
  const other = stateOf(b, b.source);
  return other.kind !== 'none' && other.key === state.key ? state : undefined;
}
