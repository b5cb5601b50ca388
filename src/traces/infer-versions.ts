// Versions inferred under a stated assumption: "no writer but the agent". No recorder stores what version of a file
// a read saw, so a repeated read can never be shown to see the same state. If nothing but the agent changes the
// workspace, though, a file's state changes only when one of the agent's own calls writes it; counting those calls
// names the state. This is a weaker guarantee than a recorded version, and is recorded as its own kind
// (`agent-writes`) so every rule that relies on it can say so.
//
// What counts as a write before a read of file F:
// - a call that declares F among its effects (edit, write, create...), unless that effect is recorded as failed;
// - any non-idempotent or destructive call whose writes cannot be attributed: a shell command (its effects are at
//   best the files its redirections name; the programs it runs may write anything) or a call declaring no effects.
//   Such a call may have written every file, so it changes every file's version.
// Paths are matched loosely (one path ending in the other at a `/`), so a write recorded as `src/a.py` counts for a
// read of `/repo/src/a.py`: matching too much only splits versions, which decides less, never more.
import type { Effect, Fixture, Item, Source } from '../fixture/schema.js';

function samePath(a: string, b: string): boolean {
  const x = a.replace(/^\.\//, '');
  const y = b.replace(/^\.\//, '');
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

const writes = (item: Item): boolean => item.kind === 'tool-call' && !!item.tool && (item.effects?.length ?? 0) > 0;

/** A call that may have changed any file: non-idempotent or worse, with effects nobody can list. */
function unattributed(item: Item, sideEffectOf: (name: string) => string | undefined): boolean {
  if (item.kind !== 'tool-call' || !item.tool) return false;
  const side = sideEffectOf(item.tool.name);
  if (side !== 'non-idempotent' && side !== 'destructive') return false;
  return item.tool.name.startsWith('shell') || (item.effects?.length ?? 0) === 0;
}

/** The effects a call declares on a path, except those recorded as failed. */
function writesTo(item: Item, path: string): boolean {
  return (item.effects ?? []).some((e: string | Effect) =>
    typeof e === 'string' ? samePath(e, path) : e.outcome !== 'failed' && samePath(e.source, path),
  );
}

/**
 * The fixture with every read of a known file whose version is UNKNOWN given an `agent-writes` version: the count of
 * the agent's writes to that file before the read and of the unattributed writes before it (`w<n>.u<m>`). Two reads
 * with the same value have no recorded or possible agent write between them. Recorded versions are left as they are.
 */
export function inferAgentWriteVersions(fixture: Fixture): Fixture {
  const declared = new Map(fixture.tools.map((t) => [t.name, t.sideEffect]));
  // A call's own item carries no side-effect class; its tool declaration does.
  const sideEffectOf = (name: string) => declared.get(name);
  const items = fixture.items.map((item, index) => {
    const source = item.source;
    if (source?.version !== 'UNKNOWN' || source.identity === 'UNKNOWN') return item;
    const before = fixture.items.slice(0, index);
    const own = before.filter((b) => writes(b) && writesTo(b, source.identity)).length;
    const any = before.filter((b) => unattributed(b, sideEffectOf)).length;
    const inferred: Source = { ...source, version: { kind: 'agent-writes', value: `w${own}.u${any}` } };
    return { ...item, source: inferred };
  });
  return { ...fixture, items };
}

/** The fixture as recorded: inferred versions back to UNKNOWN, so strict rules see only recorded evidence. */
export function withoutInferredVersions(fixture: Fixture): Fixture {
  const items = fixture.items.map((item) =>
    item.source && item.source.version !== 'UNKNOWN' && item.source.version.kind === 'agent-writes'
      ? { ...item, source: { ...item.source, version: 'UNKNOWN' as const } }
      : item,
  );
  return { ...fixture, items };
}
