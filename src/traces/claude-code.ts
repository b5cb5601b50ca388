// Claude Code session transcripts (~/.claude/projects/<project>/<session>.jsonl): one record per line. `user` and
// `assistant` records hold an Anthropic API `message`; assistant content blocks are `text`, `thinking` and
// `tool_use` {id, name, input}; user content is a prompt string or blocks of `text` and `tool_result`
// {tool_use_id, content, is_error}, with the tool's structured result beside it in `toolUseResult`.
// Claude Code 2.x writes one record per content block: records of one API message share `message.id` and are one
// model turn. Sub-agent records (`isSidechain`, with an `agentId`) are another model's conversation: a sub-agent's
// own file (agent-<id>.jsonl) imports as its session, and sidechain records inside a main file as one session per
// agent. A compaction (a `system` record of subtype `compact_boundary`, then the summary as a user record marked
// `isCompactSummary`) ends the context the model had: what follows is another session, `<name>.after-compaction-N`,
// which starts from the summary and carries the task on. A prompt the person typed while the model worked reaches the
// model in the running turn ("The user sent the following message: …"), with no user record: 2.1.x writes it as a
// `queue-operation` enqueue later removed (absorbed), newer versions as an `attachment` of type `queued_command`;
// either is the person's instruction at that place. Every other attachment is something the runtime sent the model
// beside the conversation: a file the person mentioned (`file`) is the runtime's read of it; one with text (a memory
// file, an edited file's snippet, a hook's context, a reminder) is a runtime instruction. Other record types
// (summary, progress, file-history-snapshot, other system records) are left out; so are thinking blocks, which the
// API drops from later turns.
// A conversation is a tree, not the file's order: each record names its `parentUuid`, and a /rewind (Esc Esc) or an
// edited earlier prompt appends its new prompt under an earlier record, leaving the branch it abandoned in the file;
// a resumed sub-agent writes its conversation again; a partial compaction keeps earlier records where they were and
// says in its boundary where they go. Only the branch each conversation (the main one, each sub-agent's) ended on is
// imported, in the order its model had it (`activeBranch`), as Claude Code rebuilds the conversation it resumes.
import { sha256 } from '../fixture/canonical.js';
import type { ContentBlock, ReadSelector, Source, Status } from '../fixture/schema.js';
import { agentTool, foundNothing, writtenPaths, type AgentTool } from './agent-tools.js';
import type { TraceBuilder } from './build.js';
import { intOr, objectOr, type Json, type JsonObject, type Parsed, type Reader } from './parse.js';
import { readSource, shellOutcome } from './shell.js';

interface Call {
  readonly name: string;
  readonly tool: AgentTool;
  readonly input: Record<string, unknown>;
}

/**
 * A tool result's content as the model saw it: its text blocks joined (the item's content), and every block, an image
 * carried by the sha256 of its bytes as recorded (base64 data, or its URL when the record holds only that).
 */
function resultBlocks(
  r: Reader,
  v: Json | undefined,
  path: (string | number)[],
): { text: string; blocks: ContentBlock[] } {
  if (typeof v === 'string') return { text: v, blocks: [{ type: 'text', text: v }] };
  if (v === undefined || v === null) return { text: '', blocks: [{ type: 'text', text: '' }] };
  const blocks = r.array(v, path).map((b, i): ContentBlock => {
    const o = r.object(b, [...path, i]);
    if (typeof o['text'] === 'string') return { type: 'text', text: o['text'] };
    const source = objectOr(o['source']);
    const data =
      typeof source?.['data'] === 'string'
        ? source['data']
        : typeof source?.['url'] === 'string'
          ? source['url']
          : JSON.stringify(o);
    const media = typeof source?.['media_type'] === 'string' ? source['media_type'] : undefined;
    return o['type'] === 'image' && media
      ? { type: 'image', mediaType: media, sha256: sha256(data) }
      : { type: 'other', kind: String(o['type'] ?? 'block'), sha256: sha256(data) };
  });
  const text = blocks
    .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
  return { text, blocks: blocks.length ? blocks : [{ type: 'text', text: '' }] };
}

/**
 * The view a Read took: `offset`/`limit` as asked, and the lines the tool says it showed (`toolUseResult.file`:
 * startLine, numLines, totalLines), cut short when it showed fewer lines than the range it was asked for.
 */
function readSelector(input: Record<string, unknown>, result: JsonObject | undefined): ReadSelector | undefined {
  const file = objectOr(result?.['file']);
  const start = intOr(file?.['startLine']) ?? intOr(input['offset']) ?? 1;
  const shown = intOr(file?.['numLines']);
  const total = intOr(file?.['totalLines']);
  const limit = intOr(input['limit']);
  const asked = limit !== undefined ? start + limit - 1 : total;
  if (shown !== undefined && total !== undefined) {
    const to = start + Math.max(shown, 1) - 1;
    const cut = asked !== undefined && to < Math.min(asked, total);
    if (start <= 1 && to >= total && !cut) return undefined;
    return { kind: 'lines', from: start, to, ...(cut ? { truncated: true } : {}) };
  }
  if (intOr(input['offset']) === undefined && limit === undefined) return undefined;
  return { kind: 'lines', from: start, ...(limit !== undefined ? { to: start + limit - 1 } : {}) };
}

/**
 * The runtime's own user-side text: meta caveats, compaction summaries, local command echoes, notices that a
 * background task ended, and everything a compaction sub-agent (`agent-acompact-*`) is told, which is Claude Code's
 * own summarising prompt over a copy of the conversation.
 */
function runtimeText(rec: JsonObject, text: string): boolean {
  return (
    rec['isMeta'] === true ||
    rec['isCompactSummary'] === true ||
    (typeof rec['agentId'] === 'string' && rec['agentId'].startsWith('acompact')) ||
    /^\s*<(command-name|local-command-stdout|local-command-stderr|task-notification)>/.test(text) ||
    INTERRUPTED.test(text)
  );
}

/** The records that make up what the model saw, or mark where its context ended (a compaction). */
function inContext(rec: JsonObject): boolean {
  const type = rec['type'];
  return (
    type === 'user' ||
    type === 'assistant' ||
    type === 'queue-operation' ||
    type === 'attachment' ||
    (type === 'system' && rec['subtype'] === 'compact_boundary')
  );
}

/**
 * The text the runtime sends the model for an attachment other than a queued prompt or an attached file: a memory
 * file as Claude Code renders it ("Contents of <path>:" and the file), an edited file's snippet, or the text the
 * attachment records (a hook's added context, a reminder, a listing). The runtime's wrapper words around it are not
 * recorded; an attachment with no text (a budget, a permission list) sends nothing counted here.
 */
function attachmentText(a: JsonObject): string | undefined {
  const content = a['content'];
  const inner = objectOr(content);
  if (a['type'] === 'nested_memory' && typeof inner?.['content'] === 'string') {
    const path = typeof inner['path'] === 'string' ? inner['path'] : typeof a['path'] === 'string' ? a['path'] : '';
    return `Contents of ${path}:\n\n${inner['content']}`;
  }
  if (typeof a['snippet'] === 'string') return a['snippet'];
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((c) => typeof c === 'string')) return content.join('\n');
  if (typeof inner?.['content'] === 'string') return inner['content'];
  return promptText(content);
}

/** A queued prompt's text: a string, or content blocks whose text parts are joined. */
function promptText(v: Json | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return undefined;
  const texts = v.flatMap((b) => {
    const o = objectOr(b);
    return o?.['type'] === 'text' && typeof o['text'] === 'string' ? [o['text']] : [];
  });
  return texts.length ? texts.join('\n') : undefined;
}

/**
 * The marker Claude Code writes as a user record when the person stops a request (Esc), with or without a tool use
 * under way: the runtime's record that the user acted, not words they typed, so it is no new task and no subgoal.
 */
const INTERRUPTED = /^\s*\[Request interrupted by user(?: for tool use)?\]\s*$/;

async function importRecords(
  lines: readonly { line: number; value: Json }[],
  reader: Reader,
  first: TraceBuilder,
  afterCompaction: (n: number) => TraceBuilder,
): Promise<void> {
  const calls = new Map<string, Call>();
  let lastMessage: string | undefined;
  let b = first;
  let compactions = 0;
  // Prompts typed while the model worked, oldest first, until the runtime hands them on or drops them.
  const queued: string[] = [];
  for (const { line, value } of lines) {
    const r: Reader = reader.atLine(line);
    const rec = r.object(value, []);
    const type = rec['type'];
    const time = r.optString(rec['timestamp'], ['timestamp']);
    if (typeof rec['version'] === 'string') b.formatVersion = `Claude Code ${rec['version']}`;
    if (type === 'system') {
      // A compaction: the model's context starts again from the summary that follows.
      if (b.size === 0) continue;
      compactions += 1;
      const next = afterCompaction(compactions);
      next.continueFrom(b);
      b = next;
      lastMessage = undefined;
      continue;
    }
    if (type === 'queue-operation') {
      const operation = rec['operation'];
      // A background task's notice is queued too, but reaches the model as a record of its own: it holds no place.
      if (operation === 'enqueue' && typeof rec['content'] === 'string' && !NOTICE.test(rec['content']))
        queued.push(rec['content']);
      else if (operation === 'dequeue') queued.shift();
      else if (operation === 'remove') {
        // Removed from the queue while the model worked: absorbed into the running turn (2.1.x writes nothing else).
        const prompt = queued.shift();
        if (prompt !== undefined && !SLASH_COMMAND.test(prompt)) addPrompt(b, rec, prompt, time);
      }
      continue;
    }
    if (type === 'attachment') {
      const a = r.object(rec['attachment'], ['attachment']);
      if (a['type'] !== 'queued_command') {
        // A file the person mentioned (`@path`): the runtime read it for them, so it is a read like any other.
        const file = objectOr(objectOr(a['content'])?.['file']);
        if (a['type'] === 'file' && typeof file?.['filePath'] === 'string' && typeof file['content'] === 'string') {
          const input = { file_path: file['filePath'] };
          const tool = await agentTool('Read', input);
          const recorded = {
            name: tool.name,
            sideEffect: tool.sideEffect,
            arguments: input,
            callId: `attachment-${line}`,
          };
          b.add({
            origin: 'system',
            kind: 'tool-call',
            content: JSON.stringify({ name: 'Read', input }),
            time,
            tool: recorded,
          });
          const selector = readSelector(input, { file });
          b.add({
            origin: 'environment',
            kind: 'tool-result',
            content: file['content'],
            time,
            tool: recorded,
            status: { state: 'ok' },
            source: readSource(file['filePath'], selector),
          });
          continue;
        }
        const text = attachmentText(a);
        if (text !== undefined && text.trim() !== '')
          b.add({ origin: 'system', kind: 'instruction', content: text, time });
        continue;
      }
      const prompt = promptText(a['prompt']);
      if (prompt === undefined) continue;
      const at = queued.indexOf(prompt);
      if (at >= 0) queued.splice(at, 1);
      const human =
        (a['commandMode'] ?? 'prompt') === 'prompt' && (objectOr(a['origin'])?.['kind'] ?? 'human') === 'human';
      if (human && a['isMeta'] !== true) addPrompt(b, rec, prompt, time);
      else b.add({ origin: 'system', kind: 'instruction', content: prompt, time });
      continue;
    }
    const message = r.object(rec['message'], ['message']);
    const content = message['content'];
    if (type === 'assistant') {
      // Records of one API message (one per content block in 2.x) are one turn.
      const id = typeof message['id'] === 'string' ? message['id'] : undefined;
      if (id === undefined || id !== lastMessage) b.modelTurn();
      lastMessage = id;
      const blocks =
        typeof content === 'string'
          ? [{ type: 'text', text: content } as JsonObject]
          : r.array(content, ['message', 'content']);
      for (const [i, raw] of blocks.entries()) {
        const block = r.object(raw, ['message', 'content', i]);
        if (block['type'] === 'text')
          b.add({
            origin: 'model',
            kind: 'reasoning',
            content: r.string(block['text'], ['message', 'content', i, 'text']),
            time,
          });
        if (block['type'] !== 'tool_use') continue;
        const callId = r.string(block['id'], ['message', 'content', i, 'id']);
        const name = r.string(block['name'], ['message', 'content', i, 'name']);
        const input = block['input'] === undefined ? {} : r.object(block['input'], ['message', 'content', i, 'input']);
        const tool = await agentTool(name, input);
        calls.set(callId, { name: tool.name, tool, input });
        const writes = writtenPaths(tool);
        b.add({
          origin: 'model',
          kind: 'tool-call',
          content: JSON.stringify({ name, input }),
          time,
          tool: { name: tool.name, sideEffect: tool.sideEffect, arguments: { ...input }, callId },
          effects: writes,
        });
      }
      continue;
    }
    if (typeof content === 'string') {
      if (runtimeText(rec, content)) b.add({ origin: 'system', kind: 'instruction', content, time });
      else b.userInstruction(content, time);
      continue;
    }
    const result = objectOr(rec['toolUseResult']);
    for (const [i, raw] of r.array(content, ['message', 'content']).entries()) {
      const path = ['message', 'content', i];
      const block = r.object(raw, path);
      if (block['type'] === 'text') {
        const text = r.string(block['text'], [...path, 'text']);
        if (runtimeText(rec, text)) b.add({ origin: 'system', kind: 'instruction', content: text, time });
        else b.userInstruction(text, time);
        continue;
      }
      if (block['type'] === 'image') {
        // An image the person pasted: the model saw it, carried by its hash as a tool result's image is.
        const { blocks } = resultBlocks(r, [raw], path);
        b.add({ origin: runtimeText(rec, '') ? 'system' : 'user', kind: 'instruction', content: '', blocks, time });
        continue;
      }
      if (block['type'] !== 'tool_result') continue;
      const callId = r.string(block['tool_use_id'], [...path, 'tool_use_id']);
      const call = calls.get(callId);
      if (!call)
        r.fail([...path, 'tool_use_id'], `answers tool_use "${callId}", which no earlier assistant record made`);
      const { text, blocks } = resultBlocks(r, block['content'], [...path, 'content']);
      const failed = block['is_error'] === true;
      const shell = call.tool.shell;
      const isShell = shell !== undefined;
      let status: Status = { state: 'ok' };
      let negative = false;
      let running = false;
      const exit = isShell ? /^Exit code (-?\d+)\n?/.exec(text) : null;
      if (isShell && (exit || !failed)) {
        // A failed Bash result starts with the exit code; the rest is the command's own output.
        const o = shellOutcome(shell, exit ? Number(exit[1]) : 0, exit ? text.slice(exit[0].length) : text);
        status = o.status;
        negative = o.negativeResult;
        running = o.running;
      } else if (failed) {
        const line =
          text
            .replace(/<\/?tool_use_error>/g, '')
            .split('\n')
            .find((l) => l.trim() !== '')
            ?.trim() ?? '';
        status = {
          state: 'error',
          errorType: 'tool-error',
          message: line.slice(0, 200) || 'tool error',
          fields: {},
          ...(line ? {} : { synthesized: true }),
        };
      } else negative = call.tool.search && foundNothing(text);
      // What the call showed of a file: a Read's line view, or the view a shell reader took (`sed -n 10,20p f`).
      const readsFile = status.state === 'ok' && !call.tool.writes && call.tool.path !== undefined;
      const selector = !readsFile ? undefined : shell ? shell.selector : readSelector(call.input, result);
      const source: Source | undefined = readsFile ? readSource(call.tool.path!, selector) : undefined;
      b.settleEffects(callId, status.state === 'ok' ? (running ? 'unknown' : 'succeeded') : 'failed');
      b.add({
        origin: 'environment',
        kind: 'tool-result',
        content: text,
        blocks,
        time,
        tool: { name: call.name, sideEffect: call.tool.sideEffect, arguments: { ...call.input }, callId },
        status,
        ...(source ? { source } : {}),
        negativeResult: status.state === 'ok' && negative,
        transientState: call.tool.transient || running,
      });
    }
  }
}

/** Record types Claude Code loads as the conversation's messages (`isTranscriptMessage`); progress is not one. */
const TRANSCRIPT = new Set(['user', 'assistant', 'attachment', 'system']);

const responseOf = (rec: JsonObject): string | undefined => {
  const id = objectOr(rec['message'])?.['id'];
  return rec['type'] === 'assistant' && typeof id === 'string' ? id : undefined;
};
const holdsResult = (rec: JsonObject): boolean => {
  const content = objectOr(rec['message'])?.['content'];
  return (
    rec['type'] === 'user' && Array.isArray(content) && content.some((b) => objectOr(b)?.['type'] === 'tool_result')
  );
};
const isBoundary = (rec: JsonObject): boolean => rec['type'] === 'system' && rec['subtype'] === 'compact_boundary';

/**
 * What a partial compaction kept of the conversation before it (`compactMetadata.preservedSegment`): the records from
 * `head` to `tail`, linked on disk as they were before it, which the model has again after `anchor` (the summary when
 * it kept the latest records, the boundary itself when it kept the earliest).
 */
interface Segment {
  readonly boundary: number;
  readonly head: string;
  readonly anchor: string;
  readonly tail: string;
}

/** A record's place in the tree, its fields checked: a value of the wrong type is an error naming it. */
interface Links {
  readonly uuid: string | undefined;
  /** null: a root; undefined: the record does not say. */
  readonly parent: string | null | undefined;
  readonly logical: string | undefined;
  readonly segment: Omit<Segment, 'boundary'> | undefined;
}

function linksOf(rec: JsonObject, r: Reader): Links {
  const link = (key: string): string | null | undefined =>
    rec[key] === null ? null : rec[key] === undefined ? undefined : r.string(rec[key], [key]);
  const uuid = link('uuid') ?? undefined;
  const parent = link('parentUuid');
  const logical = link('logicalParentUuid') ?? undefined;
  const meta =
    isBoundary(rec) && rec['compactMetadata'] !== undefined
      ? r.object(rec['compactMetadata'], ['compactMetadata'])
      : undefined;
  const seg = meta?.['preservedSegment'];
  if (seg === undefined || seg === null) return { uuid, parent, logical, segment: undefined };
  const at = ['compactMetadata', 'preservedSegment'];
  const o = r.object(seg, at);
  const id = (key: string): string => r.string(o[key], [...at, key]);
  return { uuid, parent, logical, segment: { head: id('headUuid'), anchor: id('anchorUuid'), tail: id('tailUuid') } };
}

/**
 * The records of one conversation (the main one, or one sub-agent's) in the order its model had them, each context
 * (before the first compaction, after each) in turn, a record its model had in two contexts (what a partial compaction
 * kept) in both; and how many records that reach the model (`inContext`) were left out with the branches it abandoned.
 *
 * Claude Code writes the conversation as a tree and resumes one path of it. What follows is its rule as its own code
 * states it: `loadTranscriptFile`, `applyPreservedSegmentRelinks`, `buildConversationChain` and
 * `recoverOrphanedParallelToolResults` in `src/utils/sessionStorage.ts`, with `partialCompactConversation`,
 * `annotateBoundaryWithPreservedSegment` and `buildPostCompactMessages` in `src/services/compact/compact.ts`, of
 * Claude Code 2.1.88's source as restored from the npm package's source map (read at github.com/Esonhugh/claude-code,
 * commit 06980710a316c14c445dd27facb58cee43a21d72; the same functions are in the published bundle, `cli.js`).
 * - The path is walked from its last record through `parentUuid` to a record whose parent is null, and reversed.
 *   Records of every type that carries a `uuid` are on the path: a legacy `progress` record (Claude Code wrote hook
 *   progress into the chain until a change its comments number #24099; the 2.1.38 files here hold some) is passed
 *   through, as Claude Code's `progressBridge` re-parents across it. A uuid written twice is the record written last
 *   (the loader's map keeps the last): a resumed sub-agent's file holds its conversation twice (below).
 * - A compact boundary has a null `parentUuid` (the resumed context starts there) and names the record before it in
 *   `logicalParentUuid`; here the walk goes on through it, since the context before a compaction is imported too
 *   (as the main session, the one after it as `after-compaction-N`).
 * - A partial compaction (the message selector's "summarize from here" / "up to here", and session-memory compaction)
 *   keeps some records (`messagesToKeep`) and writes only the boundary and the summary: the kept records stay where
 *   they were in the file, linked as before. Its boundary's `compactMetadata.preservedSegment` {headUuid, anchorUuid,
 *   tailUuid} says where they go, and the loader relinks them: the head's parent becomes the anchor, and every other
 *   record under the anchor goes under the tail. The anchor is the summary when the latest records were kept (the
 *   model then has summary, kept records, what follows) and the boundary when the earliest were ("from here": kept
 *   records, summary, what follows), as `buildPostCompactMessages` and the REPL order them. A segment whose tail does
 *   not reach its head through the parents on disk is not relinked (the loader's `tengu_relink_walk_broken` case), so
 *   its kept records are not in the context after it, as Claude Code resumes it.
 * - Parallel tool use forks the tree without leaving anything: each tool_use block of one response is its own
 *   assistant record, all sharing `message.id`, and each tool_result record's parent is the block that asked for it,
 *   so one walk sees only one of them. Every assistant record sharing the `message.id` of one on the path is kept,
 *   with every tool_result record whose parent is one of them (`recoverOrphanedParallelToolResults`; the loss it
 *   repairs is the one anthropics/claude-code#31330 and #37672 report on resume). A legacy progress fork (a tool_use
 *   record with a progress child that carried the chain on and a tool_result child) is recovered the same way.
 * Where this differs from Claude Code, and why:
 * - The end is the last record of a message type in the file, where `loadFullLog`/`loadMessagesFromJsonlPath` take
 *   the leaf (a record no other names as parent, walked back to a user or assistant record) with the latest
 *   timestamp, the first one on a tie. The file is appended to, so its last record is on the branch the session
 *   ended on; timestamps tie to the millisecond (spotter-short.jsonl's last tool_result and its interrupt marker do,
 *   and the timestamp rule would start from the tool_result and leave the marker out). Claude Code itself takes the
 *   last record in file order when it prunes a large file before parsing it (`walkChainBeforeParse`). An end that is
 *   a segment's anchor has the kept records under it once relinked, so the walk starts from the segment's tail.
 * - The context before a partial compaction ends at the last record written before its boundary, not at its
 *   `logicalParentUuid`, which names the last kept record ("from here") or the last summarised one ("up to here"):
 *   either leaves out part of what the model had when it compacted.
 * - Claude Code relinks only the last segment, and only if no boundary without one followed it, since it resumes only
 *   the last context; here every segment is relinked in the context after its own boundary (and in a later context
 *   that kept it again), which is what the model had then.
 * - A `parentUuid` naming a record the file does not hold is where Claude Code's walk stops (forked sessions start
 *   so). Here it means the record does not say which branch came before: every record before it in the file is kept,
 *   as before this rule. The same holds for a compact boundary whose `logicalParentUuid` is missing, and for a record
 *   with no `parentUuid` field (older files, hand-written ones). A writer that dropped a parent record
 *   (anthropics/claude-code#58554) would otherwise cut off the whole conversation before it.
 * - A record without a `uuid` (a queue operation) goes with the last user, assistant or attachment record before it.
 * - Records off the path (recovered siblings and results, records without a uuid) follow the path's record before
 *   them in the file, where Claude Code puts recovered siblings and results after the path's last record of their
 *   response; both are one model turn here.
 * Claude Code 2.1.220 and earlier wrote a skill's expanded body, called beside another tool, on a sibling branch the
 * recovery does not reach (anthropics/claude-code#81917): such a record is left out here as Claude Code left it out
 * on resume, though the model had it before.
 */
function activeBranch(
  entries: readonly { line: number; value: Json }[],
  reader: Reader,
): { order: readonly number[]; abandoned: number } {
  const records = entries.map((e) => objectOr(e.value) ?? {});
  const links = records.map((rec, i) => linksOf(rec, reader.atLine(entries[i]!.line)));
  const inFileOrder = [...records.keys()];
  const at = new Map<string, number>();
  for (const [i, l] of links.entries()) if (l.uuid !== undefined) at.set(l.uuid, i);
  const lastBefore = (limit: number): number | undefined => {
    for (let i = limit - 1; i >= 0; i--)
      if (links[i]!.uuid !== undefined && TRANSCRIPT.has(String(records[i]!['type']))) return i;
    return undefined;
  };
  const start = lastBefore(records.length);
  if (start === undefined) return { order: inFileOrder, abandoned: 0 };

  // The segments whose tail reaches their head through the parents on disk, as the loader checks before relinking.
  const segments: Segment[] = [];
  for (const [boundary, l] of links.entries()) {
    const seg = l.segment;
    if (!seg || !isBoundary(records[boundary]!)) continue;
    const seen = new Set<number>();
    let reached = false;
    for (let i = at.get(seg.tail); i !== undefined && !seen.has(i); ) {
      seen.add(i);
      if (links[i]!.uuid === seg.head) {
        reached = true;
        break;
      }
      const parent = links[i]!.parent;
      i = typeof parent === 'string' ? at.get(parent) : undefined;
    }
    if (reached) segments.push({ boundary, ...seg });
  }
  const anchored = new Map(segments.map((s) => [s.anchor, s]));
  // The segment a head goes on from: in a context that starts after its boundary, the latest such (two "up to here"
  // compactions in turn can keep the same first record).
  const headed = (uuid: string | undefined, ceiling: number): Segment | undefined =>
    segments.filter((s) => s.head === uuid && s.boundary < ceiling).at(-1);

  // Walk each context back from its end, the latest first; each starts at a compact boundary or a root.
  const contexts: { chain: number[]; boundary?: number }[] = [];
  let unsaid = 0;
  const crossed = new Set<number>();
  for (let from: number | undefined = start; from !== undefined; ) {
    const ceiling = from;
    const ends = anchored.get(links[from]!.uuid ?? '');
    let i: number | undefined = ends && ends.boundary <= from ? at.get(ends.tail) : from;
    const chain: number[] = [];
    const seen = new Set<number>();
    let boundary: number | undefined;
    from = undefined;
    while (i !== undefined && !seen.has(i)) {
      seen.add(i);
      chain.push(i);
      const l: Links = links[i]!;
      const segment = headed(l.uuid, ceiling);
      let next: string | null | undefined;
      if (segment) next = segment.anchor;
      else if (l.parent === null && isBoundary(records[i]!)) {
        boundary = i;
        if (crossed.has(i)) break;
        crossed.add(i);
        if (l.segment) {
          from = lastBefore(i);
          break;
        }
        next = l.logical;
        from = next === undefined ? undefined : at.get(next);
        if (from === undefined) unsaid = i;
        break;
      } else {
        next = l.parent;
        const spliced = typeof next === 'string' ? anchored.get(next) : undefined;
        if (spliced && spliced.head !== l.uuid) next = spliced.tail;
      }
      if (next === null) break;
      const j = next === undefined ? undefined : at.get(next);
      if (j === undefined) unsaid = i;
      i = j;
    }
    contexts.unshift({ chain: chain.reverse(), ...(boundary === undefined ? {} : { boundary }) });
    if (unsaid > 0) break;
  }

  // Each context's records: its path, every block record of a response on it and every result answering one, and
  // the records without a uuid that follow one of these; the earliest context also every record before `unsaid`.
  const order: number[] = [];
  const member = new Set<number>();
  for (const [c, { chain, boundary }] of contexts.entries()) {
    const path = new Set(chain);
    const responses = new Set(chain.flatMap((i) => responseOf(records[i]!) ?? []));
    const blocks = new Set<string>();
    for (const [i, r] of records.entries())
      if (responses.has(responseOf(r) ?? '') && at.get(links[i]!.uuid ?? '') === i) blocks.add(links[i]!.uuid!);
    const onBranch = new Set([...chain.map((i) => links[i]!.uuid!), ...blocks]);
    for (const [i, r] of records.entries())
      if (holdsResult(r) && blocks.has(String(links[i]!.parent)) && at.get(links[i]!.uuid ?? '') === i)
        onBranch.add(links[i]!.uuid!);
    const mine: number[] = [];
    let placed = true;
    for (const [i, rec] of records.entries()) {
      const uuid = links[i]!.uuid;
      const type = rec['type'];
      const keep: boolean =
        (c === 0 && i < unsaid) || (uuid === undefined ? placed : at.get(uuid) === i && onBranch.has(uuid));
      if (uuid !== undefined && (type === 'user' || type === 'assistant' || type === 'attachment')) placed = keep;
      if (keep) mine.push(i);
    }
    // The path in its order; a record off it follows the path's record before it in the file.
    const after = new Map<number, number[]>(chain.map((i) => [i, []]));
    const lead: number[] = [];
    const byFile = [...chain].sort((a, b) => a - b);
    let k = -1;
    for (const i of mine) {
      while (k + 1 < byFile.length && byFile[k + 1]! < i) k += 1;
      if (path.has(i)) continue;
      const host = k >= 0 ? byFile[k] : boundary;
      if (host === undefined) lead.push(i);
      else after.get(host)!.push(i);
    }
    order.push(...lead, ...chain.flatMap((i) => [i, ...after.get(i)!]));
    for (const i of mine) member.add(i);
  }
  // An earlier copy of a record written again is not left out: the model has it where it was written last.
  const written = (i: number): boolean => links[i]!.uuid === undefined || at.get(links[i]!.uuid!) === i;
  const abandoned = inFileOrder.filter((i) => !member.has(i) && inContext(records[i]!) && written(i)).length;
  return { order, abandoned };
}

/** A background task's notice that it ended, which the runtime writes into the conversation. */
const NOTICE = /^\s*<task-notification>/;

/** A slash command (`/mcp`, `/compact now`): the runtime runs it; the model is not sent it. */
const SLASH_COMMAND = /^\/[A-Za-z][\w:-]*(?:\s|$)/;

/** A prompt the person typed while the model worked, as the model got it: their instruction, unless the runtime's. */
function addPrompt(b: TraceBuilder, rec: JsonObject, prompt: string, time: string | undefined): void {
  if (runtimeText(rec, prompt)) b.add({ origin: 'system', kind: 'instruction', content: prompt, time });
  else b.userInstruction(prompt, time);
}

/**
 * The sessions of a transcript: the main conversation, and each sub-agent's sidechain as its own. A file that
 * holds only one agent's sidechain (Claude Code 2.x writes agent-<id>.jsonl) is that agent's session. Each
 * compaction starts another session, the context after it.
 *
 * A sub-agent's records are walked as the main conversation's are (`activeBranch`): Claude Code resumes a sub-agent
 * (`getAgentTranscript`, which `resumeAgent` calls) by the same loader and chain walk over its file, from its latest
 * leaf, keeping that agent's records. Its file branches too: a block's tool result hangs under the block that asked
 * for it (parallel tool use), and a resumed agent (`resumeAgent` then `runAgent`) writes its whole resumed
 * conversation again, the same uuids linked from a new root and without the tool uses left unanswered, then what it
 * did next. Sidechain records without an `agentId` (older files) are read in file order: several sub-agents share
 * them, and Claude Code never loads them as one agent's transcript.
 */
export async function importClaudeCode(
  parsed: Parsed & { kind: 'jsonl' },
  reader: Reader,
  open: (session?: string) => TraceBuilder,
): Promise<void> {
  const groups = new Map<string, { line: number; value: Json }[]>();
  for (const entry of parsed.lines) {
    const rec = objectOr(entry.value);
    const key =
      rec?.['isSidechain'] === true ? `agent-${typeof rec['agentId'] === 'string' ? rec['agentId'] : 'sidechain'}` : '';
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const sessions: { key: string; lines: { line: number; value: Json }[]; abandoned: number; first: number }[] = [];
  for (const [key, entries] of groups) {
    const branch =
      key === 'agent-sidechain' ? { order: [...entries.keys()], abandoned: 0 } : activeBranch(entries, reader);
    const lines = branch.order.map((i) => entries[i]!).filter((e) => inContext(objectOr(e.value) ?? {}));
    const first = entries.find((e) => inContext(objectOr(e.value) ?? {}))?.line;
    if (first !== undefined) sessions.push({ key, lines, abandoned: branch.abandoned, first });
  }
  // The main conversation first, then each sub-agent as it first appears in the file.
  sessions.sort((a, b) => (a.key === '' ? -1 : b.key === '' ? 1 : a.first - b.first));
  const only = sessions.length === 1;
  for (const { key, lines, abandoned } of sessions) {
    const name = key === '' || only ? undefined : key;
    const first = open(name);
    first.abandoned = abandoned;
    await importRecords(lines, reader, first, (n) =>
      open(`${name === undefined ? '' : `${name}.`}after-compaction-${n}`),
    );
  }
}
