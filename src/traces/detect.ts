// Which recorder wrote a session file, from its structure alone (file names vary too much to trust). A file no
// rule recognises is named as unknown with what was found, never imported half-way.
import { input } from '../errors.js';
import { FORMATS, type Format } from './build.js';
import type { Json, JsonObject, Parsed } from './parse.js';

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

function isOpenHandsEvent(v: Json): boolean {
  return isObject(v) && (typeof v['action'] === 'string' || typeof v['observation'] === 'string') && 'id' in v;
}

const RULES: readonly { format: Format; test: (p: Parsed) => boolean }[] = [
  {
    // SWE-agent .traj: the model's steps in `trajectory`, what it saw in `history`.
    format: 'swe-agent',
    test: (p) => p.kind === 'json' && isObject(p.value) && Array.isArray(p.value['trajectory']) && Array.isArray(p.value['history']),
  },
  {
    // mini-swe-agent .traj.json: `messages` in OpenAI chat form, `info` with the run's config and exit status.
    format: 'mini-swe-agent',
    test: (p) => p.kind === 'json' && isObject(p.value) && Array.isArray(p.value['messages']) && isObject(p.value['info'])
      && (typeof p.value['trajectory_format'] === 'string' ? p.value['trajectory_format'].startsWith('mini-swe-agent') : 'exit_status' in p.value['info'] || 'config' in p.value['info']),
  },
  {
    // `opencode export`: session `info` and `messages`, each message its `info` and `parts`.
    format: 'opencode',
    test: (p) => p.kind === 'json' && isObject(p.value) && isObject(p.value['info']) && Array.isArray(p.value['messages'])
      && p.value['messages'].every((m) => isObject(m) && isObject(m['info']) && Array.isArray(m['parts'])),
  },
  {
    // OpenHands event stream: a JSON array of events (or {"events": [...]}) with `action` or `observation`.
    format: 'openhands',
    test: (p) => {
      if (p.kind !== 'json') return false;
      const events = Array.isArray(p.value) ? p.value : isObject(p.value) && Array.isArray(p.value['events']) ? p.value['events'] : undefined;
      return events !== undefined && events.length > 0 && events.some(isOpenHandsEvent) && events.every((e) => isObject(e));
    },
  },
  {
    // Claude Code session JSONL: one record per line, `type` and `sessionId` on every conversational record.
    format: 'claude-code',
    test: (p) => p.kind === 'jsonl' && p.lines.some(({ value }) => isObject(value) && (value['type'] === 'user' || value['type'] === 'assistant') && typeof value['sessionId'] === 'string' && isObject(value['message'])),
  },
];

export function detectFormat(parsed: Parsed): Format | undefined {
  return RULES.find((r) => r.test(parsed))?.format;
}

function describeShape(parsed: Parsed): string {
  if (parsed.kind === 'jsonl') return `JSON Lines, ${parsed.lines.length} records, none a Claude Code user/assistant record with a sessionId`;
  const v = parsed.value;
  if (Array.isArray(v)) return `a JSON array of ${v.length} values, not OpenHands events`;
  if (isObject(v)) return `a JSON object with keys ${Object.keys(v).slice(0, 8).join(', ') || '(none)'}`;
  return `a JSON ${v === null ? 'null' : typeof v}`;
}

/** The detected format, checked against the one the user named (if any). */
export function requireFormat(parsed: Parsed, file: string, given?: Format): Format {
  const found = detectFormat(parsed);
  if (!found) throw input('PL_TRACE_UNKNOWN_FORMAT', file, describeShape(parsed), FORMATS);
  if (given && given !== found) throw input('PL_TRACE_FORMAT_MISMATCH', file, given, found);
  return found;
}
