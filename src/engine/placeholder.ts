// What a removed item leaves behind. Every field comes from recorded metadata, never from reading the removed
// payload for meaning: a placeholder is an audit marker, not a semantic substitute.
import type { ResidueField } from '../fixture/schema.js';
import { canonicalJson } from '../fixture/canonical.js';
import { counterpart, type PolicyView, type ViewItem } from '../fixture/view.js';
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
  const version = s.version === 'UNKNOWN' ? 'UNKNOWN' : `${s.version.kind}:${s.version.value}`;
  return `${s.identity}@${version}`;
}

export function markerText(item: ViewItem, m: MarkerInput): string {
  const tool = item.tool ? ` ${item.tool.name}` : '';
  const rung = m.rung === null ? '' : ` rung ${m.rung}`;
  const pointer = item.flags.durablePointer ? ` ${item.flags.durablePointer.storeKey} ${item.flags.durablePointer.contentHash}` : '';
  return `[pruned ${item.id} ${item.kind}${tool} @${item.time} by ${m.rule}${rung}; source ${sourceLabel(item)}; recovery ${m.recoverability}${pointer}]`;
}

/** The fields a residue removal keeps, rendered one per line; errors of a call come from its recorded result. */
export function residueText(view: PolicyView, item: ViewItem, fields: readonly ResidueField[]): string {
  const status = item.status ?? counterpart(view.items, item)?.status;
  const error = status?.state === 'error' ? status : undefined;
  const lines: string[] = [];
  for (const field of fields) {
    if (field === 'tool' && item.tool) lines.push(`tool: ${item.tool.name}`);
    else if (field === 'arguments' && item.tool) lines.push(`arguments: ${canonicalJson(item.tool.arguments)}`);
    else if (field === 'payload') lines.push(`payload: ${item.content}`);
    else if (field === 'errorType' && error) lines.push(`errorType: ${error.errorType}`);
    else if (field === 'message' && error) lines.push(`message: ${error.message}`);
    else if (field.startsWith('fields.') && error) {
      const name = field.slice('fields.'.length);
      const value = error.fields[name];
      if (value !== undefined) lines.push(`${name}: ${value}`);
    }
  }
  return lines.join('\n');
}

/** The text left in context for a removal: a residue (always kept), behind a marker when markers are on. */
export function leftBehind(view: PolicyView, item: ViewItem, m: MarkerInput, mode: PlaceholderMode,
  residue: readonly ResidueField[] | undefined, replacement: string | undefined): string {
  if (replacement !== undefined) return replacement;
  const marker = mode === 'marker' ? markerText(item, m) : '';
  if (!residue) return marker;
  const kept = residueText(view, item, residue);
  return marker ? `${marker}\n${kept}` : kept;
}
