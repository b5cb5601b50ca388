// Every committed real session imports, and what it becomes matches counts taken from the source files themselves
// (not from the importer): the source's steps, calls and results, and its own error markers (a non-zero return or
// exit code, `is_error`, an editor's refusal, a traceback, an error observation). Where the importer's count
// differs from the raw marker count, the comment beside the row says which items and why.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { Fixture, type Item } from '../../src/fixture/schema.js';
import { detectFormat } from '../../src/traces/detect.js';
import { importFile } from '../../src/traces/import.js';
import { parseTrace } from '../../src/traces/parse.js';
import { readFileSync } from 'node:fs';
import { REAL } from './support.js';

interface Expected {
  readonly file: string;
  /** Items, and of them tool calls and tool results. */
  readonly items: number;
  readonly calls: number;
  readonly results: number;
  /** Results with an error status; of those, how many carry a message the importer wrote (synthesized). */
  readonly errors: number;
  readonly synthesized: number;
  /** Results flagged as negative results (a search that found nothing). */
  readonly negative: number;
  /** Per-effect outcomes recorded as failed on the calls. */
  readonly failedEffects: number;
  readonly formatVersion: string;
}

/*
 * Source-side counts, from the raw files:
 * - SWE-agent: `trajectory` steps = assistant actions; every action but a final `submit` is answered (0.x and xml: the
 *   next user message; 1.x function calling: a `role: "tool"` message naming its id). Items: one per history message,
 *   plus one reasoning item per function-calling assistant message whose text is not empty (its thought, beside the call).
 *   Error markers: observations with an editor refusal ("Your proposed edit has introduced new syntax error") or a
 *   traceback; pydicom: 3 rejected edits + 1 traceback.
 * - mini-swe-agent: return codes != 0 in `extra.returncode` or `<returncode>`; sqlfluff's last call has no answer
 *   (the run stopped). Items: every message but `exit`; v2 tool calls: the assistant text, when present, is its own item.
 * - OpenHands: actions other than message/system/recall/think/finish are calls; observations caused by them are results.
 *   V1 (software-agent-sdk): every ActionEvent is a call (think and finish too), every ObservationEvent,
 *   AgentErrorEvent or UserRejectObservation naming its tool_call_id a result.
 *   ponyc-4593 and ponyc-4588 each hold one `error` observation with no cause (a malformed call the runtime refused
 *   before it became an action: a system instruction here) and one grep exiting 1 with no output (a negative result,
 *   not an error); the raw markers are 14 and 25.
 * - Claude Code: 12 assistant messages written as 27 block records; 10 tool_use / tool_result pairs, 2 with is_error.
 * - OpenCode event streams: the last `message.part.updated` of each part id. Items: user and assistant `text` parts
 *   (a synthetic user text is a system instruction), one call per `tool` part and one result per tool part whose
 *   final status is completed or error; step-start/step-finish/file/patch parts are none. explore.json: the parent
 *   session 2 text + 1 `task` tool part; its explore sub-agent 6 text + 18 tool parts (9 read, 7 grep, 2 glob), all
 *   completed, 2 greps answering "No files found". diff.json (0.15.0): 3 user text parts (2 synthetic: the @file
 *   read OpenCode inlines, imported as the runtime's read call and its result) + 1 completed edit. Error markers (tool status "error", a message `error`): none in either.
 */
const EXPECTED: readonly Expected[] = [
  {
    file: 'swe-agent/pydicom__pydicom-1458.traj',
    items: 26,
    calls: 12,
    results: 11,
    errors: 4,
    synthesized: 0,
    negative: 0,
    failedEffects: 3,
    formatVersion: '0.x',
  },
  {
    file: 'swe-agent/swe-agent__test-repo-i1.traj',
    items: 12,
    calls: 5,
    results: 4,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: '0.x',
  },
  {
    file: 'swe-agent/6e44b9__sweagenttestrepo-1c2844.traj',
    items: 14,
    calls: 4,
    results: 4,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: '1.x function-calling',
  },
  {
    file: 'swe-agent/function_calling_replace__marshmallow-code__marshmallow-1867.traj',
    items: 35,
    calls: 11,
    results: 11,
    errors: 1,
    synthesized: 0,
    negative: 0,
    failedEffects: 1,
    formatVersion: '1.x function-calling',
  },
  {
    file: 'swe-agent/xml_sys-env_window100__marshmallow-code__marshmallow-1867.traj',
    items: 23,
    calls: 11,
    results: 10,
    errors: 1,
    synthesized: 0,
    negative: 0,
    failedEffects: 1,
    formatVersion: '1.x text actions',
  },
  {
    file: 'mini-swe-agent/pvlib__pvlib-python-1072.traj.json',
    items: 32,
    calls: 15,
    results: 15,
    errors: 3,
    synthesized: 0,
    negative: 0,
    failedEffects: 1,
    formatVersion: 'mini-swe-agent-1.1, mini 2.2.7, v2 tool calls',
  },
  {
    file: 'mini-swe-agent/sqlfluff__sqlfluff-2419.traj.json',
    items: 129,
    calls: 43,
    results: 42,
    errors: 3,
    synthesized: 0,
    negative: 0,
    failedEffects: 2,
    formatVersion: 'mini-swe-agent-1.1, mini 2.2.7, v2 tool calls',
  },
  {
    file: 'mini-swe-agent/github_issue.v1.traj.json',
    items: 22,
    calls: 10,
    results: 10,
    errors: 2,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'v1 text (bash block)',
  },
  {
    file: 'mini-swe-agent/github_issue.v2.traj.json',
    items: 22,
    calls: 10,
    results: 10,
    errors: 2,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'v2 text (mswea_bash_command)',
  },
  {
    file: 'openhands/basic.json',
    items: 4,
    calls: 1,
    results: 1,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'event stream',
  },
  {
    file: 'openhands/wrong_initial_state.json',
    items: 8,
    calls: 3,
    results: 3,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'event stream',
  },
  {
    file: 'openhands/multi-swe-bench.output.jsonl#ponylang__ponyc-4595',
    items: 47,
    calls: 21,
    results: 21,
    errors: 6,
    synthesized: 2,
    negative: 0,
    failedEffects: 2,
    formatVersion: 'evaluation output',
  },
  {
    file: 'openhands/multi-swe-bench.output.jsonl#ponylang__ponyc-4593',
    items: 69,
    calls: 32,
    results: 32,
    errors: 12,
    synthesized: 0,
    negative: 5,
    failedEffects: 10,
    formatVersion: 'evaluation output',
  },
  {
    file: 'openhands/multi-swe-bench.output.jsonl#ponylang__ponyc-4588',
    items: 101,
    calls: 48,
    results: 48,
    errors: 23,
    synthesized: 8,
    negative: 1,
    failedEffects: 15,
    formatVersion: 'evaluation output',
  },
  {
    file: 'openhands/resolver-mock.output.jsonl#line-1',
    items: 8,
    calls: 3,
    results: 3,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'evaluation output, legacy flattened events',
  },
  {
    file: 'openhands/resolver-mock.output.jsonl#line-2',
    items: 44,
    calls: 21,
    results: 21,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'evaluation output, legacy flattened events',
  },
  {
    // Raw: 8 events. SystemPromptEvent, 2 user MessageEvents, 1 agent MessageEvent (its text, one reasoning item);
    // 2 ActionEvents (terminal `pwd > tool_output.txt`, finish) with empty `thought`, each answered by an
    // ObservationEvent with is_error false (the terminal's exit_code 0). The redirect writes tool_output.txt: one
    // effect, succeeded.
    file: 'openhands/software-agent-sdk/cd94562403b9487ebdd4018e3f531dfd.json',
    items: 8,
    calls: 2,
    results: 2,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'V1 event stream (software-agent-sdk)',
  },
  {
    // Raw: one compact_boundary record; before it 10 tool_use and 10 tool_result, 2 of them is_error; after it the
    // summary and 3 more records, with no tool use. The context the model had before the compaction is one session.
    file: 'claude-code/sample_main_transcript.jsonl',
    items: 31,
    calls: 10,
    results: 10,
    errors: 2,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'Claude Code 2.0.76',
  },
  {
    // The context after the compaction: the summary (the runtime's) and what followed it.
    file: 'claude-code/sample_main_transcript.jsonl#after-compaction-1',
    items: 4,
    calls: 0,
    results: 0,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'Claude Code 2.0.76',
  },
  {
    file: 'opencode/explore.json#ses_341f480cfffekQwFX2LabeJFAU',
    items: 4,
    calls: 1,
    results: 1,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'opencode 1.2.15, event stream',
  },
  {
    file: 'opencode/explore.json#ses_341f3e676ffez6WUF6zpok7dUZ',
    items: 42,
    calls: 18,
    results: 18,
    errors: 0,
    synthesized: 0,
    negative: 2,
    failedEffects: 0,
    formatVersion: 'opencode 1.2.15, event stream',
  },
  {
    // The @file read OpenCode inlines as two synthetic text parts is the runtime's read call and its result.
    file: 'opencode/diff.json',
    items: 5,
    calls: 2,
    results: 2,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'opencode 0.15.0, event stream',
  },
  {
    // Raw: 18 completed tool parts (8 apply_patch, 8 read, a glob, a bash) and two attached files, each a synthetic
    // call text and output text: 20 calls and 20 results; the 8 patches each name one file.
    file: 'opencode/dark-factory/session__shiny-nebula__ses_39b5e5180ffeUO9pt25DSY2L3f.json',
    items: 50,
    calls: 20,
    results: 20,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'opencode 1.2.5',
  },
  {
    // Raw: 2 tool_use, 2 tool_result, both is_error; one "[Request interrupted by user for tool use]", which is
    // the runtime's and no task of its own.
    file: 'claude-code/spotter-short.jsonl',
    items: 8,
    calls: 2,
    results: 2,
    errors: 2,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'Claude Code 2.1.38',
  },
  {
    // Raw: 6 tool_use, 6 tool_result, none is_error; two interrupt markers.
    file: 'claude-code/spotter-tool_heavy.jsonl',
    items: 21,
    calls: 6,
    results: 6,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'Claude Code 2.1.38',
  },
  {
    // Raw: 13 messages; the last session.updated reverts from the sixth, so the first five stay, with one write and
    // the read of the attached poem.md (two synthetic text parts: the runtime's call and its output).
    file: 'opencode/revert.json',
    items: 9,
    calls: 2,
    results: 2,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'opencode 0.15.8, event stream',
  },
  {
    file: 'claude-code/agent-af1ff21.jsonl',
    items: 2,
    calls: 0,
    results: 0,
    errors: 0,
    synthesized: 0,
    negative: 0,
    failedEffects: 0,
    formatVersion: 'Claude Code 2.0.76',
  },
];

const tokens = tokenCounter();
const sessions = new Map<string, Fixture>();

async function session(file: string): Promise<Fixture> {
  const [path, name] = file.split('#') as [string, string | undefined];
  if (!sessions.has(file)) {
    const all = await importFile(join(REAL, path), path, { redact: true, tokens });
    // A file of several sessions names each: its instance (OpenHands output.jsonl), session id (OpenCode), sub-agent,
    // or the context after a compaction (Claude Code); the session the file is named for has no name.
    for (const t of all) sessions.set(t.session === undefined ? path : `${path}#${t.session}`, t.fixture);
  }
  const f = sessions.get(name ? file : path);
  if (!f) throw new Error(`no session ${file}`);
  return f;
}

const count = (items: readonly Item[], test: (i: Item) => boolean) => items.filter(test).length;

describe('the committed real traces', () => {
  it('every file in data/real-traces is detected and listed here', () => {
    // Every session file, in any folder below a format's (a folder of its own holds a source under another licence).
    const under = (d: string): string[] =>
      readdirSync(join(REAL, d), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? under(`${d}/${e.name}`) : e.name === 'LICENSE' ? [] : [`${d}/${e.name}`],
      );
    const files = ['swe-agent', 'mini-swe-agent', 'openhands', 'claude-code', 'opencode'].flatMap(under);
    expect(new Set(EXPECTED.map((e) => e.file.split('#')[0]))).toEqual(new Set(files));
    for (const f of files)
      expect(detectFormat(parseTrace(readFileSync(join(REAL, f), 'utf8'), f)), f).toBe(f.split('/')[0]);
    expect(EXPECTED.length).toBeGreaterThanOrEqual(15);
    expect(new Set(files.map((f) => f.split('/')[0])).size).toBe(5);
  });

  for (const e of EXPECTED) {
    it(`${e.file}: items, calls, results, errors and negatives as counted in the source`, async () => {
      const f = Fixture.parse(await session(e.file));
      const items = f.items;
      expect({
        items: items.length,
        calls: count(items, (i) => i.kind === 'tool-call'),
        results: count(items, (i) => i.kind === 'tool-result'),
        errors: count(items, (i) => i.status?.state === 'error'),
        synthesized: count(items, (i) => i.status?.state === 'error' && i.status.synthesized === true),
        negative: count(items, (i) => i.flags.negativeResult),
        failedEffects: items
          .flatMap((i) => i.effects ?? [])
          .filter((x) => typeof x !== 'string' && x.outcome === 'failed').length,
        formatVersion: f.imported?.formatVersion,
      }).toEqual({
        items: e.items,
        calls: e.calls,
        results: e.results,
        errors: e.errors,
        synthesized: e.synthesized,
        negative: e.negative,
        failedEffects: e.failedEffects,
        formatVersion: e.formatVersion,
      });
      // A negative result is never an error; an error's message is the tool's own unless marked synthesized.
      expect(items.every((i) => !(i.flags.negativeResult && i.status?.state === 'error'))).toBe(true);
      // Every result answers an earlier call of the same tool and id, and call ids are unique.
      const calls = items.filter((i) => i.kind === 'tool-call');
      expect(new Set(calls.map((c) => c.tool!.callId)).size).toBe(calls.length);
      for (const r of items.filter((i) => i.kind === 'tool-result')) {
        const c = calls.find((x) => x.tool!.callId === r.tool!.callId);
        expect(c, `${r.id} answers a call`).toBeDefined();
        expect(items.indexOf(c!)).toBeLessThan(items.indexOf(r));
      }
    });
  }

  it('keeps every character of what the model saw: SWE-agent history text and OpenHands observation content arrive whole', async () => {
    const pydicom = await session('swe-agent/pydicom__pydicom-1458.traj');
    const raw = JSON.parse(readFileSync(join(REAL, 'swe-agent/pydicom__pydicom-1458.traj'), 'utf8')) as {
      history: { content: string }[];
    };
    expect(pydicom.items.reduce((s, i) => s + i.content.length, 0)).toBe(
      raw.history.reduce((s, m) => s + m.content.length, 0),
    );
    const pony = await session('openhands/multi-swe-bench.output.jsonl#ponylang__ponyc-4595');
    const line = JSON.parse(
      readFileSync(join(REAL, 'openhands/multi-swe-bench.output.jsonl'), 'utf8').split('\n')[0]!,
    ) as { history: { observation?: string; content?: string }[] };
    const observed = line.history.filter(
      (o) => o.observation && !['recall', 'agent_state_changed', 'null', 'think'].includes(o.observation),
    );
    expect(pony.items.filter((i) => i.kind === 'tool-result').reduce((s, i) => s + i.content.length, 0)).toBe(
      observed.reduce((s, o) => s + (o.content ?? '').length, 0),
    );
  });

  it('an OpenHands failed str_replace is an error in the editor words with a failed effect; the read before it keeps its view range', async () => {
    const f = await session('openhands/multi-swe-bench.output.jsonl#ponylang__ponyc-4595');
    const failed = f.items.find(
      (i) => i.kind === 'tool-result' && i.tool!.name === 'edit' && i.status?.state === 'error',
    )!;
    expect(failed.status).toMatchObject({
      errorType: 'edit-failed',
      message: expect.stringMatching(/^No replacement was performed, old_str `DEF\(idseqsingle\);/),
    });
    expect(failed.status).not.toHaveProperty('synthesized');
    const call = f.items.find((i) => i.kind === 'tool-call' && i.tool!.callId === failed.tool!.callId)!;
    expect(call.tool!.arguments).toMatchObject({
      command: 'str_replace',
      old_str: expect.stringContaining('DEF(idseqsingle);'),
      new_str: expect.any(String),
    });
    expect(call.effects).toEqual([
      { source: '/workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c', outcome: 'failed' },
    ]);
    const windowed = f.items.find(
      (i) =>
        i.kind === 'tool-result' &&
        i.tool!.name === 'read' &&
        i.tool!.arguments['view_range'] !== null &&
        i.tool!.arguments['view_range'] !== undefined,
    )!;
    expect(windowed.source).toMatchObject({
      identity: '/workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c',
      selector: { kind: 'lines', from: 650, to: 700 },
    });
  });

  it('a SWE-agent window read is the line range its numbered lines show', async () => {
    const f = await session('swe-agent/pydicom__pydicom-1458.traj');
    const open = f.items.find((i) => i.kind === 'tool-result' && i.tool!.name === 'open')!;
    expect(open.source).toEqual({
      identity: '/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py',
      version: 'UNKNOWN',
      mutable: 'UNKNOWN',
      selector: { kind: 'lines', from: 273, to: 372 },
    });
  });

  it('Claude Code 2.x: one turn per API message however many block records; the sidechain file is its own session', async () => {
    const f = await session('claude-code/sample_main_transcript.jsonl');
    // The message written as [thinking][tool_use][tool_use][tool_use] records: three calls, one turn.
    const turns = new Set(
      f.items
        .filter(
          (i) =>
            [
              'toolu_0121Xkn9uW9TJCnTjQjc656P',
              'toolu_018vFotHvxxm3NcDcXDk1wSh',
              'toolu_01MV7Z6p51X7jX276ddEU4zf',
            ].includes(i.tool?.callId ?? '') && i.kind === 'tool-call',
        )
        .map((i) => i.turn),
    );
    expect(turns.size).toBe(1);
    // 12 assistant messages and 4 task boundaries (5 prompts): 16 turns after the first prompt's turn 0.
    expect(f.items.at(-1)!.turn).toBe(16);
    const agent = await session('claude-code/agent-af1ff21.jsonl');
    expect(agent.items.map((i) => [i.origin, i.kind])).toEqual([
      ['user', 'instruction'],
      ['model', 'reasoning'],
    ]);
  });

  it("Claude Code 2.1: the runtime's interrupt markers are no task and no subgoal; the person's own prompts are", async () => {
    const heavy = await session('claude-code/spotter-tool_heavy.jsonl');
    const markers = heavy.items.filter((i) => i.content.startsWith('[Request interrupted by user'));
    expect(markers.map((i) => i.origin)).toEqual(['system', 'system']);
    expect(heavy.prunePoints.map((p) => p.id)).toEqual(['task-1', 'end']);
    expect(heavy.prunePoints.every((p) => !p.subgoal.includes('interrupted'))).toBe(true);
    const short = await session('claude-code/spotter-short.jsonl');
    expect(short.items.filter((i) => i.origin === 'user').map((i) => i.content)).toEqual([
      'mix phx.server doesnt seem to start',
    ]);
  });

  it('OpenCode 1.2.5 export: each attached file is read by the runtime and paired with the output naming it; each patch changes its file', async () => {
    const f = await session('opencode/dark-factory/session__shiny-nebula__ses_39b5e5180ffeUO9pt25DSY2L3f.json');
    const attached = f.items.filter((i) => i.kind === 'tool-call' && i.origin === 'system');
    expect(attached).toHaveLength(2);
    for (const c of attached) {
      const path = c.tool!.arguments['filePath'] as string;
      const shown = f.items.find((i) => i.kind === 'tool-result' && i.tool!.callId === c.tool!.callId)!;
      expect(shown.source!.identity).toBe(path);
      expect(shown.content.startsWith(`<path>${path}</path>`)).toBe(true);
    }
    expect(f.items.some((i) => i.kind === 'instruction' && i.content.startsWith('Called the Read tool'))).toBe(false);
    const patches = f.items.filter((i) => i.kind === 'tool-call' && i.tool!.name === 'apply_patch');
    expect(patches.map((i) => i.effects?.length)).toEqual(patches.map(() => 1));
  });

  it('OpenCode 0.15 event stream ending reverted: the turns the revert undid, and their writes, are not in context', async () => {
    const f = await session('opencode/revert.json');
    expect(f.items.filter((i) => i.origin === 'user').map((i) => i.content)).toEqual([
      'write 10 random words',
      'write 10 random words to the file',
    ]);
    expect(f.items.filter((i) => i.kind === 'tool-call').map((i) => i.tool!.name)).toEqual(['read', 'write']);
    // The attached file is the runtime's read of it, with the path as its source, not an instruction.
    const read = f.items.find((i) => i.kind === 'tool-call' && i.tool!.name === 'read')!;
    expect(read.origin).toBe('system');
    const shown = f.items.find((i) => i.kind === 'tool-result' && i.tool!.callId === read.tool!.callId)!;
    expect(shown.source?.identity).toMatch(/poem\.md$/);
    expect(f.items.some((i) => i.kind === 'instruction' && i.content.startsWith('Called the Read tool'))).toBe(false);
  });

  it('OpenCode 1.2 event stream: every completed tool output arrives whole from its last event, and each read window is the lines the tool says it showed', async () => {
    const sub = await session('opencode/explore.json#ses_341f3e676ffez6WUF6zpok7dUZ');
    const events = JSON.parse(readFileSync(join(REAL, 'opencode/explore.json'), 'utf8')) as {
      type: string;
      properties: {
        part?: { id: string; sessionID: string; type: string; state?: { status: string; output?: string } };
      };
    }[];
    const last = new Map<string, { sessionID: string; type: string; state?: { status: string; output?: string } }>();
    for (const e of events) if (e.type === 'message.part.updated') last.set(e.properties.part!.id, e.properties.part!);
    const outputs = [...last.values()]
      .filter((p) => p.sessionID === 'ses_341f3e676ffez6WUF6zpok7dUZ' && p.type === 'tool')
      .map((p) => p.state!.output!);
    expect(sub.items.filter((i) => i.kind === 'tool-result').map((i) => i.content)).toEqual(outputs);
    const windows = sub.items
      .filter((i) => i.kind === 'tool-result' && i.source?.identity.endsWith('/lua/opencode/ui/formatter.lua'))
      .map((i) => i.source!.selector);
    // offset 680 limit 130 showed "lines 680-809 of 950"; offset 630 limit 80 and offset 900 limit 50 likewise.
    expect(windows).toEqual([
      { kind: 'lines', from: 680, to: 809, truncated: true },
      { kind: 'lines', from: 630, to: 709, truncated: true },
      { kind: 'lines', from: 900, to: 949, truncated: true },
    ]);
    // A read with neither offset nor limit that reached "(End of file - total 125 lines)" is a whole read.
    expect(sub.items.find((i) => i.source?.identity.endsWith('/lua/opencode/ui/icons.lua'))!.source).not.toHaveProperty(
      'selector',
    );
  });
});
