// Rung 0, representation identity: the same observation rendered more than once. Two tool results are copies only
// when the call that produced them, the source identity they record, their status and every content block agree
// (`observationKey`); equal text from different commands is a different observation, unless the tool or fixture
// declares repetition irrelevant (a negative result excepted: its meaning is its query), and so is equal text from
// one command run against two recorded sources (or against a recorded source and none). It establishes only duplicate
// representation, which is why it is limited to tool results and always leaves one copy.
import type { PolicyView, ViewItem } from '../../fixture/view.js';
import { repetitionOf } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { listIds } from '../eligibility.js';
import { acrossCalls, observationKey, recordedSource } from '../identity.js';
import type { Finding } from '../types.js';
import { defineCondition } from '../definition.js';
import { gatedVersion, single } from '../single.js';

export const EXACT_REDUNDANCY = 'exact-redundancy';

export function exactRedundancy(): ConfiguredMechanism {
  return {
    rule: EXACT_REDUNDANCY,
    rung: 0,
    version: '2.7.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      // Groups are built over the whole context, not only the candidates: a copy the caller excluded (a protected
      // one) still stays and so still counts as the survivor that makes the other copies redundant.
      const copies = new Map<string, ViewItem[]>();
      const keys = new Map<string, string>();
      for (const item of view.items) {
        const key = observationKey(view, item);
        if (key === undefined) continue;
        keys.set(item.id, key);
        const group = copies.get(key);
        if (group) group.push(item);
        else copies.set(key, [item]);
      }
      // Which copies of a group stay depends on the group alone: found once per group, not once per copy.
      const stayingIn = new Map<string, string[]>();
      const findings: Finding[] = [];
      for (const item of view.items) {
        const key = keys.get(item.id);
        if (!wanted.has(item.id) || key === undefined) continue;
        const group = copies.get(key) ?? [];
        if (group.length < 2) continue;
        const same = sameness(view, item);
        let staying = stayingIn.get(key);
        if (!staying)
          stayingIn.set(key, (staying = group.filter((copy) => !wanted.has(copy.id)).map((copy) => copy.id)));
        if (staying.length > 0) {
          const which = staying.length === 1 ? 'which stays' : 'which all stay';
          findings.push({
            itemId: item.id,
            outcome: 'eligible',
            reason: `${same} ${listIds(staying)}, ${which} (excluded from removal)`,
            reliesOn: staying,
          });
          continue;
        }
        const survivor = group[group.length - 1];
        if (!survivor || survivor.id === item.id) continue;
        findings.push({
          itemId: item.id,
          outcome: 'eligible',
          reason: `${same} ${survivor.id}, the latest copy, which stays`,
          reliesOn: [survivor.id],
        });
      }
      return findings;
    },
  };
}

/** What the copies share, so the reason says which identity was established (and on whose declaration). */
function sameness(view: PolicyView, item: ViewItem): string {
  const name = item.tool?.name ?? '';
  const source = recordedSource(item);
  const of = source === undefined ? '' : ` on recorded source ${source}`;
  if (acrossCalls(view, item)) {
    const by = view.tools.some((t) => t.name === name && t.repetition !== undefined) ? `tool ${name}` : 'the fixture';
    return `same ${name} output${of}, status and every content block (any call: ${by} declares repetition irrelevant) as`;
  }
  const negative =
    item.flags.negativeResult && repetitionOf(view, name) === 'irrelevant'
      ? ' (a negative result: its meaning is its query, so only the same call repeats it)'
      : '';
  return `same call${of}, status and every content block${negative} as`;
}

const DESCRIPTION =
  'rung 0: tool results identical in call, recorded source (the same identity on both, or none on either), status and every content block (across calls only where repetition is declared irrelevant, and never for a negative result); one copy (the latest, or every protected copy) stays';

/** Layer A: the mechanism alone behind the protection and regenerability gates. */
export const definition = defineCondition({
  name: EXACT_REDUNDANCY,
  layer: 'A',
  rung: 0,
  version: gatedVersion(exactRedundancy().version),
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () => single(exactRedundancy(), { gate: true, upperRisk: false, description: DESCRIPTION }),
});
