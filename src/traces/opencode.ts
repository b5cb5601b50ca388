// OpenCode session exports (`opencode export <session>`: {info, messages: [{info, parts}], todos}, the same shapes
// its storage keeps under session/, message/ and part/). A message's `info` has its role and `time.created` (epoch
// ms); its parts are `text`, `reasoning`, `tool` {callID, tool, state}, `file`, step markers and others. A tool
// part's state is pending, running, completed {input, output} or error {input, error}. Reasoning parts are left
// out (not resent to the model), as are step markers and a tool call that never finished (no result was seen).
// The bash tool completes whatever the command's exit code and records the code in `metadata.exit`; the read tool
// takes an `offset` and a `limit` and says which lines it showed and when it cut the file.
// A recorded event stream is folded into this shape first (opencode-events.ts).
// A compaction (/compact, or OpenCode's own when the context fills) is a user message holding a `compaction` part,
// answered by an assistant message marked `summary: true`: once that summary finished, OpenCode sends the model
// nothing before the compaction again (MessageV2.filterCompacted), only the request ("What did we do so far?"), the
// summary and what follows. The context ends there, and what follows is another session, `after-compaction-N`.
// OpenCode also prunes: when a prompt's loop ends (SessionPrompt.loop), SessionCompaction.prune marks the completed
// tool parts older than the last 40,000 tokens of tool output (two turns back at least; not `skill`) with
// `state.time.compacted`, each its own Date.now() as it stores them, a few milliseconds apart; from then on
// MessageV2.toModelMessages sends such a part's call as it was and "[Old tool result content cleared]" for its
// output, with no attachments. That too ends the context: what the model is sent from the next message on is another
// session, `after-prune-N`, which starts from the same history with those outputs cleared.
import { sha256 } from '../fixture/canonical.js';
import type { ContentBlock, ReadSelector, Source, Status } from '../fixture/schema.js';
import { agentTool, foundNothing, writtenPaths } from './agent-tools.js';
import type { Draft, TraceBuilder } from './build.js';
import { intOr, objectOr, type Json, type Reader } from './parse.js';
import { readSource, shellOutcome } from './shell.js';

/**
 * The lines a read showed. The output says which, whatever the version: 0.x numbers each line `00001| `, 1.x writes
 * `<content>1: ` and ends with "(Showing lines 680-809 of 950. ...)" or "(End of file - total 153 lines)". The offset
 * alone cannot say: 0.x counts it from 0, 1.x from 1.
 */
function readSelector(input: Record<string, unknown>, output: string): ReadSelector | undefined {
  const offset = intOr(input['offset']);
  const limit = intOr(input['limit']);
  const shown = /\(Showing lines (\d+)-(\d+) of (\d+)\b/.exec(output);
  const more =
    /File has more lines|\(Output truncated|lines truncated/i.test(output) ||
    (shown !== null && Number(shown[2]) < Number(shown[3]));
  if (offset === undefined && limit === undefined && !more) return undefined;
  const numbers = [...output.matchAll(/^(?:<content>)?(\d+)(?:\||: )/gm)].map((m) => Number(m[1]));
  const from = shown ? Number(shown[1]) : (numbers[0] ?? (offset ?? 0) + 1);
  const to = shown
    ? Number(shown[2])
    : numbers.length
      ? numbers[numbers.length - 1]
      : limit !== undefined
        ? from + limit - 1
        : undefined;
  return {
    kind: 'lines',
    from,
    ...(to !== undefined && to >= from ? { to } : {}),
    ...(more ? { truncated: true } : {}),
  };
}

/**
 * What a session's pending revert leaves the model: OpenCode's `revert` (set by /undo, kept until the next prompt
 * or an unrevert) names the message, and optionally the part, from which the conversation was undone; its files
 * were restored then, and the next prompt removes those messages for good (SessionRevert.cleanup). A session that
 * ends reverted is imported as the model would go on from it: the messages before the boundary, and with a part
 * named, the boundary message's parts before it. A boundary naming no message of the session undoes nothing.
 */
function afterRevert(
  r: Reader,
  info: Record<string, Json>,
  messages: readonly Json[],
): { readonly messages: number; readonly fromPart?: string } {
  const revert = objectOr(info['revert']);
  if (!revert) return { messages: messages.length };
  const messageID = r.string(revert['messageID'], ['info', 'revert', 'messageID']);
  const at = messages.findIndex((m) => objectOr(objectOr(m)?.['info'])?.['id'] === messageID);
  if (at < 0) return { messages: messages.length };
  const partID = revert['partID'];
  return typeof partID === 'string' ? { messages: at + 1, fromPart: partID } : { messages: at };
}

/** A tool's call and outcome as the importer adds them: a tool part's, or a file attachment's Read (below). */
interface ToolRun {
  readonly name: string;
  readonly callId: string;
  readonly input: Record<string, Json>;
  readonly start: number | undefined;
  readonly end: number | undefined;
  /** Who made the call: the model for a tool part, the runtime for an attachment it read on the user's behalf. */
  readonly origin: 'model' | 'system';
  readonly outcome:
    | {
        readonly status: 'completed';
        readonly output: string;
        readonly exit: number | undefined;
        /** Files the tool returned beside its text (`state.attachments`), as the model is sent them. */
        readonly attachments?: readonly ContentBlock[];
        /** When OpenCode's prune cleared the output (`state.time.compacted`, epoch ms), if it did. */
        readonly compacted?: number;
      }
    | {
        readonly status: 'error';
        readonly error: string;
        /** What an interrupted call had printed, which the model is sent in place of the error. */
        readonly output?: string;
      }
    /** Pending or running when the session was saved: the call is added and nothing else (build.ts settles it). */
    | { readonly status: 'unfinished' };
}

const ATTACHED_READ = 'Called the Read tool with the following input: ';
const ATTACHED_FAILURE = /^Read tool failed to read ([\s\S]*?) with the following error: ([\s\S]*)$/;
const ATTACHED_PATH = /^<path>([^\n]*)<\/path>/;

/** The Read input of an attachment's call text, or undefined for any other text part. */
function attachedCall(part: Json | undefined): Record<string, Json> | undefined {
  const p = objectOr(part);
  const text = p?.['text'];
  if (p?.['type'] !== 'text' || p['synthetic'] !== true || typeof text !== 'string' || !text.startsWith(ATTACHED_READ))
    return undefined;
  let input: unknown;
  try {
    input = JSON.parse(text.slice(ATTACHED_READ.length));
  } catch {
    return undefined;
  }
  const args = objectOr(input as Json);
  return args && typeof args['filePath'] === 'string' ? args : undefined;
}

/** A synthetic text part that is not itself a call text: what an attachment's output can be. */
function syntheticText(part: Json | undefined): string | undefined {
  const p = objectOr(part);
  const text = p?.['text'];
  return p?.['type'] === 'text' && p['synthetic'] === true && typeof text === 'string' && !attachedCall(part)
    ? text
    : undefined;
}

/** The path an output names (1.x `<path>…</path>` or a failure's), trailing slashes aside; undefined when it names none. */
function outputPath(text: string): string | undefined {
  const named = ATTACHED_PATH.exec(text)?.[1] ?? ATTACHED_FAILURE.exec(text)?.[1];
  return named?.replace(/\/+$/, '');
}

/**
 * Files the user attached (`@path`): OpenCode runs its Read tool for the user and stores each call and its output as
 * synthetic text parts of the user's message, "Called the Read tool with the following input: {json}" and the output
 * (or "Read tool failed to read <path> with the following error: <message>"), beside the file parts
 * (SessionPrompt.createUserMessage). 0.x writes each output right after its call; 1.x reads the files concurrently
 * and may write every call first and the outputs in another order, each output opening with `<path>`. So a call is
 * paired with the first later output that names its path, and failing that with the part right after it when that
 * output names no path (0.x). The pair is a read of that file like any other, made by the runtime; anything else (a
 * call with no output, a binary file's data URL) stays a runtime instruction. Returns, per call part's index, the
 * index of its output; `before` is where a pending revert undid the message from (no output at or after it counts).
 */
function attachedReads(parts: readonly Json[], before: number): Map<number, number> {
  const pairs = new Map<number, number>();
  const claimed = new Set<number>();
  for (let j = 0; j < before; j += 1) {
    const input = attachedCall(parts[j]);
    if (!input) continue;
    const wanted = String(input['filePath']).replace(/\/+$/, '');
    let out = -1;
    for (let k = j + 1; k < before && out < 0; k += 1) {
      const text = syntheticText(parts[k]);
      if (text !== undefined && !claimed.has(k) && outputPath(text) === wanted) out = k;
    }
    if (out < 0 && j + 1 < before && !claimed.has(j + 1)) {
      const next = syntheticText(parts[j + 1]);
      if (next !== undefined && outputPath(next) === undefined) out = j + 1;
    }
    if (out < 0) continue;
    pairs.set(j, out);
    claimed.add(out);
  }
  return pairs;
}

/**
 * The compactions OpenCode honours (MessageV2.filterCompacted): the user messages holding a `compaction` part that a
 * finished summary answered, an assistant message marked `summary: true` with a finish reason and no error whose
 * `parentID` names the request. A compaction whose summary never finished cuts nothing.
 */
function answeredCompactions(messages: readonly Json[]): Set<string> {
  const answered = new Set<string>();
  for (const m of messages) {
    const info = objectOr(objectOr(m)?.['info']);
    if (
      info?.['role'] === 'assistant' &&
      info['summary'] === true &&
      typeof info['finish'] === 'string' &&
      !info['error'] &&
      typeof info['parentID'] === 'string'
    )
      answered.add(info['parentID']);
  }
  return answered;
}

/**
 * A file as the model is sent it (a user's `file` part, a tool's attachment): an image by its media type, anything
 * else (a PDF) by its mime type, each carried by the sha256 of its data as recorded (a data URL's payload, or the URL).
 */
function fileBlock(mime: string, url: string): ContentBlock {
  const comma = url.startsWith('data:') ? url.indexOf(',') : -1;
  const data = comma >= 0 ? url.slice(comma + 1) : url;
  return mime.startsWith('image/')
    ? { type: 'image', mediaType: mime, sha256: sha256(data) }
    : { type: 'other', kind: mime || 'file', sha256: sha256(data) };
}

/**
 * A completed tool's attachments as toModelOutput sends them: only data URLs holding a payload go out (others are
 * dropped there too).
 */
function attachmentBlocks(r: Reader, v: Json | undefined, path: (string | number)[]): ContentBlock[] {
  if (v === undefined || v === null) return [];
  return r.array(v, path).flatMap((raw, i) => {
    const a = r.object(raw, [...path, i]);
    const url = r.string(a['url'], [...path, i, 'url']);
    if (!url.startsWith('data:') || !url.includes(',')) return [];
    return [fileBlock(r.string(a['mime'], [...path, i, 'mime']), url)];
  });
}

/**
 * An assistant message toModelMessages leaves out: one that ended in an error, unless the user aborted it after it
 * wrote something other than a step marker or reasoning (what it wrote then is sent).
 */
function unsentAssistant(info: Record<string, Json>, parts: readonly Json[]): boolean {
  const error = objectOr(info['error']);
  if (!error && !info['error']) return false;
  const aborted = error?.['name'] === 'MessageAbortedError';
  return !(
    aborted &&
    parts.some((p) => {
      const type = objectOr(p)?.['type'];
      return type !== 'step-start' && type !== 'reasoning';
    })
  );
}

/** What OpenCode sends the model in place of a `subtask` part (MessageV2.toModelMessages). */
const SUBTASK_NOTE = 'The following tool was executed by the user';

/** The result toModelMessages sends for a call still pending or running when a later request was made. */
const INTERRUPTED = '[Tool execution was interrupted]';

/** What OpenCode sends the model in place of a `compaction` part (MessageV2.toModelMessages). */
const COMPACTION_REQUEST = 'What did we do so far?';

/** What OpenCode sends the model in place of a pruned tool output, `state.time.compacted` set (MessageV2.toModelMessages). */
const PRUNED_OUTPUT = '[Old tool result content cleared]';

/**
 * A tool result as the model is sent it once OpenCode pruned it: the placeholder and nothing the output showed, so
 * no source, no outcome read off it, no flag.
 */
function pruned(result: Draft): Draft {
  const { origin, kind, time, tool } = result;
  return { origin, kind, content: PRUNED_OUTPUT, time, tool, status: { state: 'ok' } };
}

/**
 * One OpenCode session; `open` gives its builder (no name) and, after each compaction it honours, the builder of the
 * context that follows (`after-compaction-N`), and after each prune that cleared outputs of that context, the builder
 * of the context from the next message on (`after-prune-N`).
 */
export async function importOpenCode(root: Json, r: Reader, open: (session?: string) => TraceBuilder): Promise<void> {
  let b = open();
  const top = r.object(root, []);
  const messages = r.array(top['messages'], ['messages']);
  const info =
    top['info'] && typeof top['info'] === 'object' && !Array.isArray(top['info'])
      ? (top['info'] as Record<string, Json>)
      : {};
  if (typeof info['version'] === 'string') b.formatVersion = `opencode ${info['version']}`;
  const kept = afterRevert(r, info, messages);
  const compactions = answeredCompactions(messages.slice(0, kept.messages));
  let compacted = 0;
  let prunes = 0;
  // The results of the current context whose outputs OpenCode's prune cleared later, with when it did.
  const uncleared = new Map<Draft, number>();
  // Where each message of the current context begins among its builder's drafts (a compaction's kept tail).
  const startOf = new Map<string, number>();

  const addTool = async (run: ToolRun): Promise<void> => {
    const tool = await agentTool(run.name, run.input);
    const recorded = { name: tool.name, sideEffect: tool.sideEffect, arguments: { ...run.input }, callId: run.callId };
    const reading = tool.shell;
    const effects = writtenPaths(tool);
    b.add({
      origin: run.origin,
      kind: 'tool-call',
      content: JSON.stringify({ tool: run.name, input: run.input }),
      time: run.start,
      tool: recorded,
      effects,
    });
    if (run.outcome.status === 'completed') {
      const { output, exit, attachments } = run.outcome;
      const outcome = reading ? shellOutcome(reading, exit, output) : undefined;
      const st: Status = outcome ? outcome.status : { state: 'ok' };
      const selector =
        tool.writes || !tool.path ? undefined : reading ? reading.selector : readSelector(run.input, output);
      const source: Source | undefined = !tool.writes && tool.path ? readSource(tool.path, selector) : undefined;
      b.settleEffects(run.callId, st.state === 'ok' ? (outcome?.running ? 'unknown' : 'succeeded') : 'failed');
      const result: Draft = {
        origin: 'environment',
        kind: 'tool-result',
        content: output,
        ...(attachments?.length ? { blocks: [{ type: 'text', text: output }, ...attachments] } : {}),
        time: run.end,
        tool: recorded,
        status: st,
        ...(source ? { source } : {}),
        negativeResult: outcome ? outcome.negativeResult : tool.search && foundNothing(output),
        transientState: tool.transient || !!outcome?.running,
      };
      b.add(result);
      if (run.outcome.compacted !== undefined) uncleared.set(result, run.outcome.compacted);
      return;
    }
    if (run.outcome.status === 'unfinished') return;
    const { error, output } = run.outcome;
    b.settleEffects(run.callId, 'failed');
    b.add({
      origin: 'environment',
      kind: 'tool-result',
      content: output ?? error,
      time: run.end,
      tool: recorded,
      status: {
        state: 'error',
        errorType: 'tool-error',
        message:
          error
            .split('\n')
            .find((l) => l.trim() !== '')
            ?.trim()
            .slice(0, 200) || 'tool error',
        fields: {},
        ...(error.trim() === '' ? { synthesized: true } : {}),
      },
    });
  };

  for (const [i, raw] of messages.entries()) {
    if (i >= kept.messages) break;
    const path = ['messages', i];
    const m = r.object(raw, path);
    const info = r.object(m['info'], [...path, 'info']);
    const role = r.string(info['role'], [...path, 'info', 'role']);
    const created =
      info['time'] && typeof info['time'] === 'object' && !Array.isArray(info['time'])
        ? r.optNumber((info['time'] as Record<string, Json>)['created'], [...path, 'info', 'time', 'created'])
        : undefined;
    const parts = r.array(m['parts'], [...path, 'parts']);
    if (created !== undefined && [...uncleared.values()].some((t) => t < created)) {
      // OpenCode pruned outputs of this context before this message: from here on the model is sent the same
      // history with them cleared. One prune marks its parts a few milliseconds apart, between two messages, and
      // every mark before this message is in force from it on, so all of them open one session.
      prunes += 1;
      const next = open(`after-prune-${prunes}`);
      next.resumeFrom(b, (d) => {
        const t = uncleared.get(d);
        return t === undefined || t >= created ? d : pruned(d);
      });
      for (const [d, t] of uncleared) if (t < created) uncleared.delete(d);
      b = next;
    }
    const compaction = role === 'user' ? parts.findIndex((p) => objectOr(p)?.['type'] === 'compaction') : -1;
    if (compaction >= 0 && compactions.has(String(info['id'])) && b.size > 0) {
      // A compaction its summary answered: the model's context ends here and starts again from the summary, after
      // the recent messages it kept (`tail_start_id`, newer versions), which the model is sent as they were.
      const tailField = [...path, 'parts', compaction, 'tail_start_id'];
      const tail = objectOr(parts[compaction])?.['tail_start_id'];
      let from = -1;
      if (tail !== undefined && tail !== null && tail !== info['id']) {
        const at = startOf.get(r.string(tail, tailField));
        if (at === undefined)
          r.fail(tailField, `names message "${String(tail)}", which is not before this compaction in its context`);
        from = at;
      }
      compacted += 1;
      const next = open(`after-compaction-${compacted}`);
      if (from < 0) next.continueFrom(b);
      else next.resumeFrom(b, (d) => d, from);
      // The history before it, pruned or not, is no longer sent; the kept tail is sent as it was.
      const carried = new Set(from < 0 ? [] : b.draftsFrom(from));
      for (const d of uncleared.keys()) if (!carried.has(d)) uncleared.delete(d);
      for (const [id, at] of startOf)
        if (from < 0 || at < from) startOf.delete(id);
        else startOf.set(id, at - from);
      b = next;
    }
    if (typeof info['id'] === 'string') startOf.set(info['id'], b.size);
    // A message toModelMessages never sends (a failed response) is no part of any context.
    if (role === 'assistant' && unsentAssistant(info, parts)) continue;
    // The summary stands in for the history it replaced: the runtime's record of it, not a model turn of the task.
    const summary = role === 'assistant' && info['summary'] === true;
    if (role === 'assistant') {
      if (!summary) b.modelTurn();
    } else if (role !== 'user')
      r.fail([...path, 'info', 'role'], `unknown role "${role}" (expected user or assistant)`);
    // Where a pending revert undid this message from: parts from there on are gone.
    const boundary =
      i === kept.messages - 1 && kept.fromPart !== undefined
        ? parts.findIndex((p) => objectOr(p)?.['id'] === kept.fromPart)
        : -1;
    const before = boundary < 0 ? parts.length : boundary;
    const attached = role === 'user' ? attachedReads(parts, before) : new Map<number, number>();
    const outputs = new Set(attached.values());
    for (let j = 0; j < before; j += 1) {
      const ppath = [...path, 'parts', j];
      const part = r.object(parts[j], ppath);
      const type = r.string(part['type'], [...ppath, 'type']);
      if (outputs.has(j)) continue;
      if (type === 'compaction') {
        b.add({ origin: 'system', kind: 'instruction', content: COMPACTION_REQUEST, time: created });
        continue;
      }
      if (type === 'subtask' && role === 'user') {
        // The sub-agent's run is the `task` call the runtime writes next; the model is told only who ran it.
        b.add({ origin: 'system', kind: 'instruction', content: SUBTASK_NOTE, time: created });
        continue;
      }
      if (type === 'file' && role === 'user') {
        // Text files and directories reach the model as the synthetic Read parts beside this one; any other file
        // (an image, a PDF) is sent as itself.
        const mime = r.string(part['mime'], [...ppath, 'mime']);
        if (mime === 'text/plain' || mime === 'application/x-directory') continue;
        const blocks = [fileBlock(mime, r.string(part['url'], [...ppath, 'url']))];
        b.add({ origin: 'user', kind: 'instruction', content: '', blocks, time: created });
        continue;
      }
      if (type === 'text') {
        const text = r.string(part['text'], [...ppath, 'text']);
        // A text the user's message keeps for display only (`ignored`) is never sent.
        if (role === 'user' && part['ignored'] === true) continue;
        const out = attached.get(j);
        if (out !== undefined) {
          const result = syntheticText(parts[out])!;
          const failure = ATTACHED_FAILURE.exec(result);
          await addTool({
            name: 'read',
            callId: typeof part['id'] === 'string' ? part['id'] : `attached-${i}-${j}`,
            input: attachedCall(part)!,
            start: created,
            end: created,
            origin: 'system',
            outcome: failure
              ? { status: 'error', error: failure[2]! }
              : { status: 'completed', output: result, exit: undefined },
          });
          continue;
        }
        if (role === 'user') {
          if (part['synthetic'] === true)
            b.add({ origin: 'system', kind: 'instruction', content: text, time: created });
          else b.userInstruction(text, created);
        } else if (summary) b.add({ origin: 'system', kind: 'instruction', content: text, time: created });
        else b.add({ origin: 'model', kind: 'reasoning', content: text, time: created });
        continue;
      }
      if (type !== 'tool') continue;
      const name = r.string(part['tool'], [...ppath, 'tool']);
      const callId = r.string(part['callID'], [...ppath, 'callID']);
      const state = r.object(part['state'], [...ppath, 'state']);
      const status = r.string(state['status'], [...ppath, 'state', 'status']);
      const input = state['input'] === undefined ? {} : r.object(state['input'], [...ppath, 'state', 'input']);
      const times =
        state['time'] && typeof state['time'] === 'object' && !Array.isArray(state['time'])
          ? (state['time'] as Record<string, Json>)
          : {};
      const start = r.optNumber(times['start'], [...ppath, 'state', 'time', 'start']) ?? created;
      const end = r.optNumber(times['end'], [...ppath, 'state', 'time', 'end']) ?? start;
      if (status === 'completed') {
        const output = r.string(state['output'], [...ppath, 'state', 'output']);
        const metadata =
          state['metadata'] && typeof state['metadata'] === 'object' && !Array.isArray(state['metadata'])
            ? (state['metadata'] as Record<string, Json>)
            : {};
        const exit = typeof metadata['exit'] === 'number' ? metadata['exit'] : undefined;
        // OpenCode's prune marks only completed parts, and only theirs does toModelMessages clear.
        const compactedAt = r.optNumber(times['compacted'], [...ppath, 'state', 'time', 'compacted']);
        const attachments = attachmentBlocks(r, state['attachments'], [...ppath, 'state', 'attachments']);
        await addTool({
          name,
          callId,
          input,
          start,
          end,
          origin: 'model',
          outcome: {
            status,
            output,
            exit,
            ...(attachments.length ? { attachments } : {}),
            ...(compactedAt !== undefined ? { compacted: compactedAt } : {}),
          },
        });
      } else if (status === 'error') {
        const error = r.string(state['error'], [...ppath, 'state', 'error']);
        // A call the user interrupted is sent with what it had printed (`metadata.output`), not the error.
        const meta = objectOr(state['metadata']);
        const output =
          meta?.['interrupted'] === true && typeof meta['output'] === 'string' ? meta['output'] : undefined;
        await addTool({
          name,
          callId,
          input,
          start,
          end,
          origin: 'model',
          outcome: { status, error, ...(output !== undefined ? { output } : {}) },
        });
      } else if (status === 'pending' || status === 'running') {
        // Where the session went on past it, every later request sent the call with the interrupted marker as its
        // result; a call in the last message is where the recording stopped, its result not yet seen.
        const later = i < kept.messages - 1;
        await addTool({
          name,
          callId,
          input,
          start,
          end,
          origin: 'model',
          outcome: later ? { status: 'error', error: INTERRUPTED } : { status: 'unfinished' },
        });
      } else {
        r.fail(
          [...ppath, 'state', 'status'],
          `unknown tool state "${status}" (expected pending, running, completed or error)`,
        );
      }
    }
  }
}
