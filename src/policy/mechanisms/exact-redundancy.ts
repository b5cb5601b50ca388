// Rung 0, representation identity: byte-equal environment output. It establishes only that the same rendered
// payload appears more than once, which is why it is limited to tool results and always leaves one copy.
import type { ViewItem } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { listIds } from '../eligibility.js';
import type { Finding } from '../types.js';

export const EXACT_REDUNDANCY = 'exact-redundancy';

export function exactRedundancy(): ConfiguredMechanism {
  return {
    rule: EXACT_REDUNDANCY,
    rung: 0,
    version: '1.0.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      // Groups are built over the whole context, not only the candidates: a copy the caller excluded (a protected
      // one) still stays and so still counts as the survivor that makes the other copies redundant.
      const copies = new Map<string, ViewItem[]>();
      for (const item of view.items) {
        if (item.kind !== 'tool-result') continue;
        const group = copies.get(item.content);
        if (group) group.push(item);
        else copies.set(item.content, [item]);
      }
      const findings: Finding[] = [];
      for (const item of view.items) {
        if (!wanted.has(item.id) || item.kind !== 'tool-result') continue;
        const group = copies.get(item.content) ?? [];
        if (group.length < 2) continue;
        const staying = group.filter((copy) => !wanted.has(copy.id)).map((copy) => copy.id);
        if (staying.length > 0) {
          const which = staying.length === 1 ? 'which stays' : 'which all stay';
          findings.push({
            itemId: item.id,
            outcome: 'eligible',
            reason: `byte-identical to ${listIds(staying)}, ${which} (excluded from removal)`,
          });
          continue;
        }
        const survivor = group[group.length - 1];
        if (!survivor || survivor.id === item.id) continue;
        findings.push({
          itemId: item.id,
          outcome: 'eligible',
          reason: `byte-identical to ${survivor.id}, the latest copy, which stays`,
        });
      }
      return findings;
    },
  };
}
