// The label the leak audit and the controls' training read from an oracle, one per item in context at a prune
// point: removable when removing that item alone, whole, with everything else present, violates no obligation.
// So an item the oracle lists as `removable` is removable; a member of a redundant group with more members than it
// must keep is removable too (any one spare copy may go); a `partial` item is necessary (its bulk may go, the whole
// item may not), as is every item the oracle does not name.
import type { OraclePoint } from '../fixture/schema.js';

export function removableAlone(point: OraclePoint): ReadonlySet<string> {
  const out = new Set(point.removable);
  for (const group of point.redundantGroups) {
    if (group.items.length > group.keep) for (const id of group.items) out.add(id);
  }
  for (const p of point.partial) out.delete(p.itemId);
  return out;
}
