// OpenCode's event stream as a client receives it from the server's event bus (`session.created|updated`,
// `message.updated`, `message.part.updated`, `message.part.delta`, `message.removed`, `message.part.removed`, and
// events about other things), saved as a JSON array by clients that record it (opencode.nvim's
// `capture_streamed_events`). The server sends a message or a part again each time it changes, so the last version
// of each is what its storage and `opencode export` keep: folding the stream that way gives each session in the
// export's shape, and the export importer reads it. A sub-agent (the `task` tool) runs in a session of its own,
// whose events arrive in the same stream; each session is folded apart.
import type { Json, JsonObject, Reader } from './parse.js';
import { objectOr } from './parse.js';

/** One session as `opencode export` would write it, with the session id that tells it apart in the stream. */
export interface FoldedSession {
  readonly id: string;
  readonly export: Json;
}

interface Message {
  info?: JsonObject;
  readonly parts: Map<string, JsonObject>;
}
interface Session {
  info?: JsonObject;
  readonly messages: Map<string, Message>;
}

/**
 * Lua clients write an empty table as `[]`: a tool's `input` or `metadata` recorded before the model streamed any
 * argument arrives as an empty array where the server sent an empty object.
 */
function emptyObjects(part: JsonObject): JsonObject {
  const state = objectOr(part['state']);
  if (!state) return part;
  const fixed: JsonObject = { ...state };
  for (const key of ['input', 'metadata'])
    if (Array.isArray(fixed[key]) && (fixed[key] as Json[]).length === 0) fixed[key] = {};
  return { ...part, state: fixed };
}

/** True when a parsed value is a recorded OpenCode event stream: bus events, at least one of them a message part. */
export function isOpenCodeEventStream(v: Json): boolean {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every(
      (e) =>
        objectOr(e) !== undefined && typeof (e as JsonObject)['type'] === 'string' && 'properties' in (e as JsonObject),
    ) &&
    v.some(
      (e) =>
        (e as JsonObject)['type'] === 'message.part.updated' &&
        objectOr(objectOr((e as JsonObject)['properties'])?.['part']) !== undefined,
    )
  );
}

export function foldOpenCodeEvents(events: Json, r: Reader): FoldedSession[] {
  const sessions = new Map<string, Session>();
  const session = (id: string): Session => {
    let s = sessions.get(id);
    if (!s) sessions.set(id, (s = { messages: new Map() }));
    return s;
  };
  const message = (sessionId: string, id: string): Message => {
    const s = session(sessionId);
    let m = s.messages.get(id);
    if (!m) s.messages.set(id, (m = { parts: new Map() }));
    return m;
  };
  for (const [i, raw] of r.array(events, []).entries()) {
    const event = r.object(raw, [i]);
    const type = r.string(event['type'], [i, 'type']);
    const props = objectOr(event['properties']);
    const at = (...k: string[]) => [i, 'properties', ...k];
    if (type === 'session.created' || type === 'session.updated') {
      const info = r.object(props?.['info'], at('info'));
      session(r.string(info['id'], at('info', 'id'))).info = info;
    } else if (type === 'message.updated') {
      const info = r.object(props?.['info'], at('info'));
      message(r.string(info['sessionID'], at('info', 'sessionID')), r.string(info['id'], at('info', 'id'))).info = info;
    } else if (type === 'message.part.updated') {
      const part = r.object(props?.['part'], at('part'));
      const m = message(
        r.string(part['sessionID'], at('part', 'sessionID')),
        r.string(part['messageID'], at('part', 'messageID')),
      );
      m.parts.set(r.string(part['id'], at('part', 'id')), emptyObjects(part));
    } else if (type === 'message.part.delta') {
      // Newer servers stream a text as deltas to one field of a part already sent.
      const p = r.object(props, at());
      const m = message(r.string(p['sessionID'], at('sessionID')), r.string(p['messageID'], at('messageID')));
      const id = r.string(p['partID'], at('partID'));
      const field = r.string(p['field'], at('field'));
      const part = m.parts.get(id);
      if (!part) r.fail(at('partID'), `a delta to part "${id}", which no earlier event sent`);
      const before = part[field];
      m.parts.set(id, {
        ...part,
        [field]: `${typeof before === 'string' ? before : ''}${r.string(p['delta'], at('delta'))}`,
      });
    } else if (type === 'message.removed') {
      const p = r.object(props, at());
      session(r.string(p['sessionID'], at('sessionID'))).messages.delete(r.string(p['messageID'], at('messageID')));
    } else if (type === 'message.part.removed') {
      const p = r.object(props, at());
      message(r.string(p['sessionID'], at('sessionID')), r.string(p['messageID'], at('messageID'))).parts.delete(
        r.string(p['partID'], at('partID')),
      );
    }
  }
  const out: FoldedSession[] = [];
  for (const [id, s] of sessions) {
    // A session the stream only mentions (another one of the project updated meanwhile) holds nothing of this one.
    if (s.messages.size === 0) continue;
    const messages: Json[] = [];
    for (const [mid, m] of s.messages) {
      if (!m.info)
        r.fail([], `session "${id}": message "${mid}" has parts but no message.updated event ever gave its info`);
      messages.push({ info: m.info, parts: [...m.parts.values()] });
    }
    out.push({ id, export: { info: s.info ?? { id }, messages } });
  }
  return out;
}
