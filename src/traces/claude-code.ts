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
// The main conversation is a tree, not the file's order: each record names its `parentUuid`, and a /rewind (Esc Esc)
// or an edited earlier prompt appends its new prompt under an earlier record, leaving the branch it abandoned in the
// file. Only the branch the session ended on is imported (`activeBranch`), as Claude Code rebuilds the conversation
// it resumes.
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

const uuidOf = (rec: JsonObject): string | undefined => (typeof rec['uuid'] === 'string' ? rec['uuid'] : undefined);
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

/**
 * Which of the main conversation's records (in file order) were its context on the branch the session ended on, and
 * how many records that reach the model (`inContext`) were left out with the branches it abandoned.
 *
 * Claude Code writes the conversation as a tree and resumes one path of it. What follows is its rule as its own code
 * states it: `loadTranscriptFile`, `buildConversationChain` and `recoverOrphanedParallelToolResults` in
 * `src/utils/sessionStorage.ts` of Claude Code 2.1.88's source as restored from the npm package's source map (read at
 * github.com/Esonhugh/claude-code, commit 06980710a316c14c445dd27facb58cee43a21d72; the same functions are in the
 * published bundle, `cli.js`).
 * - The path is walked from its last record through `parentUuid` to a record whose parent is null, and reversed.
 *   Records of every type that carries a `uuid` are on the path: a legacy `progress` record (Claude Code wrote hook
 *   progress into the chain until a change its comments number #24099; the 2.1.38 files here hold some) is passed
 *   through, as Claude Code's `progressBridge` re-parents across it.
 * - A compact boundary has a null `parentUuid` (the resumed context starts there) and names the record before it in
 *   `logicalParentUuid`; here the walk goes on through it, since the context before a compaction is imported too
 *   (as the main session, the one after it as `after-compaction-N`).
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
 *   last record in file order when it prunes a large file before parsing it (`walkChainBeforeParse`).
 * - A `parentUuid` naming a record the file does not hold is where Claude Code's walk stops (forked sessions start
 *   so). Here it means the record does not say which branch came before: every record before it in the file is kept,
 *   as before this rule. The same holds for a compact boundary whose `logicalParentUuid` is missing, and for a record
 *   with no `parentUuid` field (older files, hand-written ones). A writer that dropped a parent record
 *   (anthropics/claude-code#58554) would otherwise cut off the whole conversation before it.
 * - A record without a `uuid` (a queue operation) goes with the last user, assistant or attachment record before it.
 * - Records are kept in file order, where Claude Code puts recovered siblings and results after the path's last record
 *   of their response; both are one model turn here.
 * Sidechains are not walked: a sub-agent is not rewound by the person, and sidechains without an `agentId` in one file
 * would share one tree. Claude Code 2.1.220 and earlier wrote a skill's expanded body, called beside another tool, on a
 * sibling branch the recovery does not reach (anthropics/claude-code#81917): such a record is left out here as Claude
 * Code left it out on resume, though the model had it before.
 */
function activeBranch(records: readonly JsonObject[]): { kept: ReadonlySet<number>; abandoned: number } {
  const all = new Set(records.keys());
  const at = new Map<string, number>();
  for (const [i, rec] of records.entries()) {
    const uuid = uuidOf(rec);
    if (uuid !== undefined) at.set(uuid, i);
  }
  let end = -1;
  for (let i = records.length - 1; i >= 0 && end < 0; i--)
    if (uuidOf(records[i]!) !== undefined && TRANSCRIPT.has(String(records[i]!['type']))) end = i;
  if (end < 0) return { kept: all, abandoned: 0 };
  // Walk back from the end. Every record before `unsaid` is kept: the record there does not say what came before it.
  const path = new Set<string>();
  let unsaid = 0;
  for (let i: number | undefined = end; i !== undefined; ) {
    const rec: JsonObject = records[i]!;
    const uuid = uuidOf(rec)!;
    if (path.has(uuid)) break;
    path.add(uuid);
    const parent = rec['parentUuid'];
    const boundary = rec['type'] === 'system' && rec['subtype'] === 'compact_boundary';
    const next =
      typeof parent === 'string'
        ? parent
        : parent === null && boundary
          ? typeof rec['logicalParentUuid'] === 'string'
            ? rec['logicalParentUuid']
            : undefined
          : parent === null
            ? null
            : undefined;
    if (next === null) break;
    const j = typeof next === 'string' ? at.get(next) : undefined;
    if (j === undefined) unsaid = i;
    i = j;
  }
  // Parallel tool use: every block record of a response on the path, and every result answering one of them.
  const responses = new Set(records.flatMap((r) => (path.has(uuidOf(r) ?? '') ? [responseOf(r) ?? ''] : [])));
  responses.delete('');
  const blocks = new Set<string>();
  for (const r of records) if (responses.has(responseOf(r) ?? '') && uuidOf(r)) blocks.add(uuidOf(r)!);
  const onBranch = new Set([...path, ...blocks]);
  for (const r of records)
    if (holdsResult(r) && blocks.has(String(r['parentUuid'])) && uuidOf(r)) onBranch.add(uuidOf(r)!);
  const kept = new Set<number>();
  let placed = true;
  for (const [i, rec] of records.entries()) {
    const uuid = uuidOf(rec);
    const type = rec['type'];
    const keep: boolean = i < unsaid || (uuid === undefined ? placed : onBranch.has(uuid));
    if (uuid !== undefined && (type === 'user' || type === 'assistant' || type === 'attachment')) placed = keep;
    if (keep) kept.add(i);
  }
  const abandoned = [...all].filter((i) => !kept.has(i) && inContext(records[i]!)).length;
  return { kept: kept.size === records.length ? all : kept, abandoned };
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
 */
export async function importClaudeCode(
  parsed: Parsed & { kind: 'jsonl' },
  reader: Reader,
  open: (session?: string) => TraceBuilder,
): Promise<void> {
  // The main conversation's records on the branch it ended on; sidechains are read in file order, as before.
  const main = parsed.lines.filter((e) => objectOr(e.value)?.['isSidechain'] !== true);
  const branch = activeBranch(main.map((e) => objectOr(e.value) ?? {}));
  const kept = new Set(main.filter((_, i) => branch.kept.has(i)).map((e) => e.line));
  const groups = new Map<string, { line: number; value: Json }[]>();
  for (const entry of parsed.lines) {
    const rec = objectOr(entry.value);
    if (!rec || !inContext(rec)) continue;
    const key =
      rec['isSidechain'] === true ? `agent-${typeof rec['agentId'] === 'string' ? rec['agentId'] : 'sidechain'}` : '';
    if (key === '' && !kept.has(entry.line)) continue;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const only = groups.size === 1;
  for (const [key, lines] of [...groups].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : 0))) {
    const name = key === '' || only ? undefined : key;
    const first = open(name);
    if (key === '') first.abandoned = branch.abandoned;
    await importRecords(lines, reader, first, (n) =>
      open(`${name === undefined ? '' : `${name}.`}after-compaction-${n}`),
    );
  }
}
