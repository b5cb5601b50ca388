// Which recorder wrote a session file, from its structure alone (file names vary too much to trust). A file no
// rule recognises is named as unknown with what was found, never imported half-way.
import { input } from '../errors.js';
import { FORMATS, type Format } from './build.js';
import { isOpenCodeEventStream } from './opencode-events.js';
import { openHandsV1Events } from './openhands-v1.js';
import type { Json, JsonObject, Parsed } from './parse.js';

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An OpenHands event: an action or an observation (serialized events carry an id; legacy flattened ones do not). */
function isOpenHandsEvent(v: Json): boolean {
  return isObject(v) && (typeof v['action'] === 'string' || typeof v['observation'] === 'string');
}

const isChatMessage = (v: Json): boolean =>
  isObject(v) && typeof v['role'] === 'string' && ('content' in v || 'tool_calls' in v);

/** An OpenHands evaluation or resolver output record: one instance with its `history` of events. */
const isOpenHandsOutput = (v: Json | undefined): boolean =>
  isObject(v) && Array.isArray(v['history']) && v['history'].length > 0 && v['history'].every(isOpenHandsEvent);

const RULES: readonly { format: Format; test: (p: Parsed) => boolean }[] = [
  {
    // SWE-agent .traj: what the model saw in `history` (chat messages with roles), its steps in `trajectory`; 1.x
    // demonstrations hold only the history, each message labelled with its `message_type`.
    format: 'swe-agent',
    test: (p) =>
      p.kind === 'json' &&
      isObject(p.value) &&
      Array.isArray(p.value['history']) &&
      p.value['history'].length > 0 &&
      p.value['history'].every(isChatMessage) &&
      (Array.isArray(p.value['trajectory']) || p.value['history'].some((m) => isObject(m) && 'message_type' in m)),
  },
  {
    // mini-swe-agent .traj.json: `messages` in OpenAI chat form, `info` with the run's config and exit status; its
    // tests save the bare message list.
    format: 'mini-swe-agent',
    test: (p) =>
      p.kind === 'json' &&
      (isObject(p.value)
        ? Array.isArray(p.value['messages']) &&
          isObject(p.value['info']) &&
          (typeof p.value['trajectory_format'] === 'string'
            ? p.value['trajectory_format'].startsWith('mini-swe-agent')
            : 'exit_status' in p.value['info'] || 'config' in p.value['info'])
        : Array.isArray(p.value) && p.value.length > 0 && p.value.every(isChatMessage)),
  },
  {
    // `opencode export`: session `info` and `messages`, each message its `info` and `parts`; or the server's event
    // stream as a client recorded it (bus events, message parts among them).
    format: 'opencode',
    test: (p) =>
      p.kind === 'json' &&
      (isOpenCodeEventStream(p.value) ||
        (isObject(p.value) &&
          isObject(p.value['info']) &&
          Array.isArray(p.value['messages']) &&
          p.value['messages'].every((m) => isObject(m) && isObject(m['info']) && Array.isArray(m['parts'])))),
  },
  {
    // OpenHands: an event stream (a JSON array of events, or {"events": [...]}), or evaluation/resolver output
    // (`output.jsonl`, one instance and its `history` per line; or one such record as JSON); or a V1 conversation's
    // events (software-agent-sdk, each naming its `kind`) in the same two shapes.
    format: 'openhands',
    test: (p) => {
      if (p.kind === 'jsonl') return p.lines.length > 0 && p.lines.every(({ value }) => isOpenHandsOutput(value));
      if (isOpenHandsOutput(p.value) || openHandsV1Events(p.value) !== undefined) return true;
      const events = Array.isArray(p.value)
        ? p.value
        : isObject(p.value) && Array.isArray(p.value['events'])
          ? p.value['events']
          : undefined;
      return (
        events !== undefined && events.length > 0 && events.some(isOpenHandsEvent) && events.every((e) => isObject(e))
      );
    },
  },
  {
    // Claude Code session JSONL: one record per line, `type` and `sessionId` on every conversational record.
    format: 'claude-code',
    test: (p) =>
      p.kind === 'jsonl' &&
      p.lines.some(
        ({ value }) =>
          isObject(value) &&
          (value['type'] === 'user' || value['type'] === 'assistant') &&
          typeof value['sessionId'] === 'string' &&
          isObject(value['message']),
      ),
  },
];

export function detectFormat(parsed: Parsed): Format | undefined {
  return RULES.find((r) => r.test(parsed))?.format;
}

function describeShape(parsed: Parsed): string {
  if (parsed.kind === 'jsonl')
    return `JSON Lines, ${parsed.lines.length} records, neither Claude Code user/assistant records with a sessionId nor OpenHands output records with a history of events`;
  const v = parsed.value;
  if (Array.isArray(v))
    return `a JSON array of ${v.length} values, neither OpenHands events (V0 or V1), OpenCode bus events nor chat messages`;
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
