// What a removed item leaves behind. Every field comes from recorded metadata, never from reading the removed
// payload for meaning: a placeholder is an audit marker, not a semantic substitute.
import { versionLabel } from '../fixture/canonical.js';
import { residueText } from '../fixture/residue.js';
import type { ResidueField } from '../fixture/schema.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import type { Recoverability } from '../policy/regenerability.js';

export type PlaceholderMode = 'marker' | 'none';
export const PLACEHOLDER_CHOICES = ['marker', 'none'] as const;

export interface MarkerInput {
  readonly rule: string;
  readonly rung: number | null;
  readonly recoverability: Recoverability;
}

function sourceLabel(item: ViewItem): string {
  const s = item.source;
  if (!s || s.identity === 'UNKNOWN') return 'UNKNOWN';
  return `${s.identity}@${versionLabel(s.version)}`;
}

export function markerText(item: ViewItem, m: MarkerInput): string {
  const tool = item.tool ? ` ${item.tool.name}` : '';
  const rung = m.rung === null ? '' : ` rung ${m.rung}`;
  const pointer = item.flags.durablePointer
    ? ` ${item.flags.durablePointer.storeKey} ${item.flags.durablePointer.contentHash}`
    : '';
  return `[pruned ${item.id} ${item.kind}${tool} @${item.time} by ${m.rule}${rung}; source ${sourceLabel(item)}; recovery ${m.recoverability}${pointer}]`;
}

/** The text left in context for a removal: a residue (always kept), behind a marker when markers are on. */
export function leftBehind(
  view: PolicyView,
  item: ViewItem,
  m: MarkerInput,
  mode: PlaceholderMode,
  residue: readonly ResidueField[] | undefined,
  replacement: string | undefined,
): string {
  if (replacement !== undefined) return replacement;
  const marker = mode === 'marker' ? markerText(item, m) : '';
  if (!residue) return marker;
  const kept = residueText(view, item, residue);
  return marker ? `${marker}\n${kept}` : kept;
}
