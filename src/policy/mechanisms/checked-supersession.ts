// Rung 2, checked subsumption: a newer observation replaces an older one only when the replacement is checked, not
// assumed. Same tool, same canonical arguments, same source, the newer coverage a superset of the older, and the
// change between them explained by the agent's own recorded transition (a call whose effects name the source).
import type { ViewItem } from '../../fixture/view.js';
import { canonicalJson } from '../../fixture/canonical.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import type { Finding } from '../types.js';

export const CHECKED_SUPERSESSION = 'checked-supersession';

type Check =
  | { readonly outcome: 'eligible' | 'abstain'; readonly reason: string }
  | { readonly outcome: 'none' };

function check(items: readonly ViewItem[], olderIndex: number, newerIndex: number, identity: string): Check {
  const older = items[olderIndex];
  const newer = items[newerIndex];
  if (!older || !newer) return { outcome: 'none' };
  if (!older.covers || !newer.covers) {
    const missing = [!older.covers ? older.id : '', !newer.covers ? newer.id : ''].filter(Boolean).join(' and ');
    return { outcome: 'abstain', reason: `coverage of ${missing} is unparsed, so ${newer.id} cannot be checked to cover ${older.id}` };
  }
  const newerCovers = new Set(newer.covers);
  const uncovered = older.covers.filter((key) => !newerCovers.has(key));
  if (uncovered.length > 0) return { outcome: 'none' };
  const transition = items
    .slice(olderIndex + 1, newerIndex)
    .find((item) => item.kind === 'tool-call' && (item.effects ?? []).some((e) => (typeof e === 'string' ? e : e.source) === identity));
  if (transition) {
    return {
      outcome: 'eligible',
      reason:
        `superseded by ${newer.id}: same tool and arguments on ${identity}, its coverage includes all of ` +
        `${older.id}'s, and ${transition.id} between them changed ${identity}`,
    };
  }
  if (older.content !== newer.content) {
    return {
      outcome: 'abstain',
      reason: `${newer.id} differs from ${older.id} on ${identity} and no recorded transition between them explains the change`,
    };
  }
  // Identical output with no transition is a rung-0/1 question, not one this rule answers.
  return { outcome: 'none' };
}

export function checkedSupersession(): ConfiguredMechanism {
  return {
    rule: CHECKED_SUPERSESSION,
    rung: 2,
    version: '1.0.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const items = view.items;
      const findings: Finding[] = [];
      items.forEach((older, olderIndex) => {
        const identity = older.source?.identity;
        if (!wanted.has(older.id) || older.kind !== 'tool-result' || !older.tool || !identity || identity === 'UNKNOWN') return;
        const args = canonicalJson(older.tool.arguments);
        const newerIndexes: number[] = [];
        items.forEach((newer, index) => {
          if (
            index > olderIndex &&
            newer.kind === 'tool-result' &&
            newer.tool?.name === older.tool?.name &&
            newer.source?.identity === identity &&
            canonicalJson(newer.tool?.arguments) === args
          ) {
            newerIndexes.push(index);
          }
        });
        // The latest replacement is tried first: it is the most complete account of the source, and the first
        // eligible check wins, otherwise the first abstention (latest first) is reported.
        let abstention: string | undefined;
        for (const newerIndex of [...newerIndexes].reverse()) {
          const result = check(items, olderIndex, newerIndex, identity);
          if (result.outcome === 'eligible') {
            findings.push({ itemId: older.id, outcome: 'eligible', reason: result.reason });
            return;
          }
          if (result.outcome === 'abstain' && abstention === undefined) abstention = result.reason;
        }
        if (abstention !== undefined) findings.push({ itemId: older.id, outcome: 'abstain', reason: abstention });
      });
      return findings;
    },
  };
}
