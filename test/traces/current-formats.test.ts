// The shapes today's recorders write that older importers rejected, misread or dropped, each written here by hand
// from the upstream writer's schema (the file and commit named beside each), with the older shape beside it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { sha256 } from '../../src/fixture/canonical.js';
import type { Fixture, Item } from '../../src/fixture/schema.js';
import { importFile } from '../../src/traces/import.js';
import { tempDir } from './support.js';

async function load(name: string, content: unknown): Promise<Fixture[]> {
  const path = join(tempDir(), name);
  writeFileSync(path, JSON.stringify(content));
  return (await importFile(path, name, { redact: true, tokens: tokenCounter() })).map((t) => t.fixture);
}
const one = async (name: string, content: unknown) => (await load(name, content))[0]!;
const result = (f: Fixture, callId: string): Item | undefined =>
  f.items.find((i) => i.kind === 'tool-result' && i.tool!.callId === callId);
const failure = async (name: string, content: unknown): Promise<string> => {
  try {
    await load(name, content);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('imported without an error');
};

// OpenCode as anomalyco/opencode writes it at 007a9409bafea06d6b9084ff1f6d1fe9f5e3a803:
// packages/opencode/src/session/message-v2.ts (the part schemas, toModelMessagesEffect, filterCompacted).
describe('OpenCode: parts and states toModelMessages sends', () => {
  const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==';
  const PDF = 'data:application/pdf;base64,JVBERi0xLjQK';
  const msg = (id: string, role: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({
    info: { id, sessionID: 'ses_1', role, time: { created: 1750000000000 }, ...extra },
    parts,
  });
  const tool = (callID: string, name: string, state: unknown) => ({
    id: `prt_${callID}`,
    type: 'tool',
    callID,
    tool: name,
    state,
  });
  const completed = (extra: Record<string, unknown> = {}) => ({
    status: 'completed',
    input: { filePath: '/r/shot.png' },
    output: 'Image read successfully',
    title: 'shot.png',
    metadata: {},
    time: { start: 1750000000100, end: 1750000000200 },
    ...extra,
  });
  const session = (messages: unknown[]) => ({
    info: { id: 'ses_1', version: '1.14.0', title: 't', time: { created: 1, updated: 2 } },
    messages,
  });

  it('a file the user attached that is no text (an image, a PDF) is sent as itself: an instruction carrying it by hash', async () => {
    const f = await one(
      'ses.json',
      session([
        msg('m1', 'user', [
          { id: 'u1', type: 'text', text: 'What is wrong in this screenshot?' },
          { id: 'u2', type: 'file', mime: 'image/png', filename: 'shot.png', url: PNG },
          { id: 'u3', type: 'file', mime: 'application/pdf', filename: 'spec.pdf', url: PDF },
        ]),
        msg('m2', 'assistant', [{ id: 'a1', type: 'text', text: 'The button overlaps.' }]),
      ]),
    );
    expect(f.items.map((i) => [i.origin, i.kind, i.content, i.blocks])).toEqual([
      ['user', 'instruction', 'What is wrong in this screenshot?', undefined],
      [
        'user',
        'instruction',
        '',
        [{ type: 'image', mediaType: 'image/png', sha256: sha256('iVBORw0KGgoAAAANSUhEUg==') }],
      ],
      ['user', 'instruction', '', [{ type: 'other', kind: 'application/pdf', sha256: sha256('JVBERi0xLjQK') }]],
      ['model', 'reasoning', 'The button overlaps.', undefined],
    ]);
  });

  it('a text file or a directory the user attached is not sent as a file (its Read parts carry it), as before', async () => {
    const f = await one(
      'ses.json',
      session([
        msg('m1', 'user', [
          { id: 'u1', type: 'text', text: 'Look at @a.ts' },
          { id: 'u2', type: 'file', mime: 'text/plain', filename: 'a.ts', url: 'file:///r/a.ts' },
          { id: 'u3', type: 'file', mime: 'application/x-directory', filename: 'src', url: 'file:///r/src' },
        ]),
      ]),
    );
    expect(f.items.map((i) => i.content)).toEqual(['Look at @a.ts']);
  });

  it("a user's text marked `ignored` is never sent; one not so marked is", async () => {
    const f = await one(
      'ses.json',
      session([
        msg('m1', 'user', [
          { id: 'u1', type: 'text', text: 'Run the tests' },
          { id: 'u2', type: 'text', text: 'shown only', ignored: true },
          { id: 'u3', type: 'text', text: 'also sent', ignored: false },
        ]),
      ]),
    );
    expect(f.items.map((i) => i.content)).toEqual(['Run the tests', 'also sent']);
  });

  it("a subtask part is sent as the runtime's note that the user ran the tool; the task call follows as before", async () => {
    const f = await one(
      'ses.json',
      session([
        msg('m1', 'user', [
          { id: 'u1', type: 'subtask', prompt: 'Review the diff', description: 'review', agent: 'general' },
        ]),
        msg('m2', 'assistant', [
          tool('t1', 'task', {
            status: 'completed',
            input: { prompt: 'Review the diff', description: 'review', subagent_type: 'general' },
            output: 'Looks fine.',
            title: 'review',
            metadata: {},
            time: { start: 1, end: 2 },
          }),
        ]),
      ]),
    );
    expect(f.items.map((i) => [i.origin, i.kind, i.content])).toEqual([
      ['system', 'instruction', 'The following tool was executed by the user'],
      ['model', 'tool-call', expect.stringContaining('"tool":"task"')],
      ['environment', 'tool-result', 'Looks fine.'],
    ]);
  });

  it("a tool's attachments are sent with its output: the result carries them by hash (data URLs only, as toModelOutput sends)", async () => {
    const f = await one(
      'ses.json',
      session([
        msg('m1', 'user', [{ id: 'u1', type: 'text', text: 'Read the screenshot' }]),
        msg('m2', 'assistant', [
          tool(
            'r1',
            'read',
            completed({
              attachments: [
                { id: 'f1', sessionID: 'ses_1', messageID: 'm2', type: 'file', mime: 'image/png', url: PNG },
                {
                  id: 'f2',
                  sessionID: 'ses_1',
                  messageID: 'm2',
                  type: 'file',
                  mime: 'image/png',
                  url: 'file:///x.png',
                },
              ],
            }),
          ),
          tool('r2', 'read', completed()),
        ]),
      ]),
    );
    expect(result(f, 'r1')!.blocks).toEqual([
      { type: 'text', text: 'Image read successfully' },
      { type: 'image', mediaType: 'image/png', sha256: sha256('iVBORw0KGgoAAAANSUhEUg==') },
    ]);
    expect(result(f, 'r1')!.content).toBe('Image read successfully');
    // No attachment, no blocks: the text alone, as before.
    expect(result(f, 'r2')!.blocks).toBeUndefined();
  });

  it('an attachment of the wrong shape is an error naming its field', async () => {
    const message = await failure(
      'ses.json',
      session([
        msg('m1', 'user', [{ id: 'u1', type: 'text', text: 'Read it' }]),
        msg('m2', 'assistant', [tool('r1', 'read', completed({ attachments: [{ type: 'file', mime: 'image/png' }] }))]),
      ]),
    );
    expect(message).toContain('ses.json');
    expect(message).toContain('$.messages[1].parts[0].state.attachments[0].url');
  });

  it('a call the user interrupted is sent with what it had printed (`metadata.output`); any other error with its error text', async () => {
    const f = await one(
      'ses.json',
      session([
        msg('m1', 'user', [{ id: 'u1', type: 'text', text: 'Build it' }]),
        msg('m2', 'assistant', [
          tool('b1', 'bash', {
            status: 'error',
            input: { command: 'make' },
            error: 'Tool execution aborted',
            metadata: { interrupted: true, output: 'cc -c a.c\ncc -c b.c\n' },
            time: { start: 1, end: 2 },
          }),
          tool('b2', 'bash', {
            status: 'error',
            input: { command: 'make install' },
            error: 'Permission denied',
            metadata: { output: 'not sent' },
            time: { start: 3, end: 4 },
          }),
        ]),
      ]),
    );
    expect(result(f, 'b1')!.content).toBe('cc -c a.c\ncc -c b.c\n');
    expect(result(f, 'b1')!.status).toMatchObject({ state: 'error', message: 'Tool execution aborted' });
    expect(result(f, 'b2')!.content).toBe('Permission denied');
  });

  it('a call left pending or running is answered by the interrupted marker once the session went on; in the last message it has no result yet', async () => {
    const pending = (id: string) =>
      tool(id, 'bash', { status: 'running', input: { command: 'sleep 100' }, time: { start: 1 } });
    const fs = await one(
      'ses.json',
      session([
        msg('m1', 'user', [{ id: 'u1', type: 'text', text: 'Wait for it' }]),
        msg('m2', 'assistant', [pending('p1')]),
        msg('m3', 'user', [{ id: 'u3', type: 'text', text: 'Never mind, stop' }]),
        msg('m4', 'assistant', [pending('p2')]),
      ]),
    );
    expect(result(fs, 'p1')).toMatchObject({
      content: '[Tool execution was interrupted]',
      status: { state: 'error', message: '[Tool execution was interrupted]' },
    });
    expect(result(fs, 'p2')).toBeUndefined();
    expect(fs.items.filter((i) => i.kind === 'tool-call')).toHaveLength(2);
  });

  it('a response that failed is not sent again; one the user aborted after it wrote text is, and one aborted before it wrote anything is not', async () => {
    const f = await one(
      'ses.json',
      session([
        msg('m1', 'user', [{ id: 'u1', type: 'text', text: 'Start' }]),
        msg('m2', 'assistant', [{ id: 'a2', type: 'text', text: 'partial before the API failed' }], {
          error: { name: 'APIError', data: { message: 'Overloaded', isRetryable: true } },
        }),
        msg(
          'm3',
          'assistant',
          [
            { id: 'a3', type: 'step-start' },
            { id: 'a3r', type: 'reasoning', text: 'hmm', time: { start: 1 } },
          ],
          {
            error: { name: 'MessageAbortedError', data: { message: 'aborted' } },
          },
        ),
        msg('m4', 'assistant', [{ id: 'a4', type: 'text', text: 'kept: written before the abort' }], {
          error: { name: 'MessageAbortedError', data: { message: 'aborted' } },
        }),
        msg('m5', 'assistant', [{ id: 'a5', type: 'text', text: 'no error' }]),
      ]),
    );
    expect(f.items.map((i) => i.content)).toEqual(['Start', 'kept: written before the abort', 'no error']);
  });

  const summary = (id: string, parentID: string) => ({
    info: {
      id,
      sessionID: 'ses_1',
      role: 'assistant',
      parentID,
      mode: 'compaction',
      agent: 'compaction',
      summary: true,
      finish: 'stop',
      time: { created: 1750000000000 },
    },
    parts: [{ id: `prt_${id}`, type: 'text', text: '## Goal\nFix the build.' }],
  });
  const compacted = (tail?: unknown) =>
    session([
      msg('m1', 'user', [{ id: 'u1', type: 'text', text: 'Fix the build' }]),
      msg('m2', 'assistant', [{ id: 'a2', type: 'text', text: 'Reading.' }]),
      msg('m3', 'user', [{ id: 'u3', type: 'text', text: 'Also the docs' }]),
      msg('m4', 'assistant', [{ id: 'a4', type: 'text', text: 'Docs read.' }]),
      msg('c1', 'user', [
        { id: 'pc', type: 'compaction', auto: true, ...(tail !== undefined ? { tail_start_id: tail } : {}) },
      ]),
      summary('s1', 'c1'),
      msg('m5', 'user', [{ id: 'u5', type: 'text', text: 'Go on' }]),
    ]);

  it('a compaction that kept a tail (`tail_start_id`) sends the kept messages as they were, then the request and the summary', async () => {
    const fs = await load('ses.json', compacted('m3'));
    expect(fs.map((f) => f.id)).toEqual(['opencode.ses', 'opencode.ses.after-compaction-1']);
    expect(fs[1]!.items.map((i) => [i.origin, i.content])).toEqual([
      ['user', 'Also the docs'],
      ['model', 'Docs read.'],
      ['system', 'What did we do so far?'],
      ['system', '## Goal\nFix the build.'],
      ['user', 'Go on'],
    ]);
    // The earlier session is untouched by where the later one starts.
    expect(fs[0]!.items.map((i) => i.content)).toEqual(['Fix the build', 'Reading.', 'Also the docs', 'Docs read.']);
  });

  it('a compaction with no tail (or a null one) starts from the request and the summary, as before', async () => {
    for (const tail of [undefined, null]) {
      const fs = await load('ses.json', compacted(tail));
      expect(fs[1]!.items.map((i) => i.content)).toEqual([
        'What did we do so far?',
        '## Goal\nFix the build.',
        'Go on',
      ]);
    }
  });

  it('a tail naming no earlier message of the context is an error naming the field', async () => {
    const message = await failure('ses.json', compacted('m9'));
    expect(message).toContain('$.messages[4].parts[0].tail_start_id');
    expect(message).toContain('"m9"');
    expect(await failure('ses.json', compacted(7))).toContain('$.messages[4].parts[0].tail_start_id');
  });

  it('a user file part without its url is an error naming the field', async () => {
    const message = await failure(
      'ses.json',
      session([msg('m1', 'user', [{ id: 'u2', type: 'file', mime: 'image/png', filename: 'shot.png' }])]),
    );
    expect(message).toContain('$.messages[0].parts[0].url');
  });
});

// OpenHands V1 as OpenHands/software-agent-sdk writes it at dc38cf4893973b8665e952d29c9e7ecfb1f16811:
// openhands-sdk/openhands/sdk/event/acp_tool_call.py (ACPToolCallEvent, "not an LLMConvertibleEvent").
describe('OpenHands V1: a conversation run by an external ACP agent server', () => {
  const events = (acp: boolean) => [
    {
      kind: 'MessageEvent',
      id: 'e1',
      timestamp: '2026-05-01T10:00:00',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'Fix the failing test' }] },
      activated_skills: [],
      extended_content: [],
    },
    ...(acp
      ? [
          {
            kind: 'ACPToolCallEvent',
            id: 'e2',
            timestamp: '2026-05-01T10:00:05',
            source: 'agent',
            tool_call_id: 'toolu_1',
            title: 'Read tests/test_a.py',
            status: 'completed',
            tool_kind: 'read',
            raw_input: { file_path: 'tests/test_a.py' },
            raw_output: 'def test_a(): ...',
            content: [{ type: 'content', content: { type: 'text', text: 'def test_a(): ...' } }],
            is_error: false,
          },
        ]
      : []),
    {
      kind: 'MessageEvent',
      id: 'e3',
      timestamp: '2026-05-01T10:00:09',
      source: 'agent',
      llm_message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
      activated_skills: [],
      extended_content: [],
    },
  ];

  it('is refused, naming the file, the event and its kind: its tool calls are in no View, its model context is not recorded', async () => {
    const message = await failure('conv.json', events(true));
    expect(message).toContain('conv.json');
    expect(message).toContain('$[1].kind');
    expect(message).toContain('ACP');
  });

  it('a conversation the SDK agent ran itself imports as before', async () => {
    const f = await one('conv.json', events(false));
    expect(f.items.map((i) => [i.origin, i.content])).toEqual([
      ['user', 'Fix the failing test'],
      ['model', 'Fixed.'],
    ]);
  });
});

// mini-swe-agent as SWE-agent/mini-swe-agent writes it: src/minisweagent/models/litellm_response_model.py
// (06af5c4779a573f6da5125b24e77a54d47d044a7) and utils/actions_toolcall_response.py
// (14fd0672eda656e58ab0a300e5a44a494a32f850) for the Responses API; utils/openai_multimodal.py
// (01018ad8a1667ccdccf3a0c285edfed418e98e6a) for `image_url` blocks.
describe('mini-swe-agent: Responses API models and multimodal observations', () => {
  const PNG = 'data:image/png;base64,iVBORw0KGgo=';
  const head = [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer.' },
    { role: 'user', content: 'Fix the bug in a.py' },
  ];
  const response = (output: unknown[]) => ({
    id: 'resp_1',
    object: 'response',
    created_at: 1767225600,
    model: 'gpt-5',
    status: 'completed',
    output,
    extra: { actions: [{ command: 'cat a.py', tool_call_id: 'call_1' }], cost: 0.01, timestamp: 1767225601.5 },
  });
  const traj = (messages: unknown[]) => ({
    info: { mini_version: '2.1.0', exit_status: 'Submitted' },
    messages,
    trajectory_format: 'mini-swe-agent-1.1',
  });

  it('reads a saved response object (reasoning left out, its message text, its function calls) and the function_call_output that answers each', async () => {
    const f = await one(
      'r.traj.json',
      traj([
        ...head,
        response([
          { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'think' }] },
          { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'bash', arguments: '{"command": "cat a.py"}' },
        ]),
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: '<returncode>0</returncode>\n<output>\nprint(1)\n</output>',
          extra: { raw_output: 'print(1)\n', returncode: 0, timestamp: 1767225602 },
        },
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'Please always provide EXACTLY ONE action.' }],
          extra: { interrupt_type: 'FormatError' },
        },
      ]),
    );
    expect(f.items.map((i) => [i.origin, i.kind])).toEqual([
      ['system', 'instruction'],
      ['user', 'instruction'],
      ['model', 'reasoning'],
      ['model', 'tool-call'],
      ['environment', 'tool-result'],
      ['system', 'instruction'],
    ]);
    expect(f.items[2]!.content).toBe('Let me look.');
    expect(f.items[3]!.tool).toMatchObject({
      name: 'shell.read',
      callId: 'call_1',
      arguments: { command: 'cat a.py' },
    });
    expect(f.items[4]!.source).toMatchObject({ identity: 'a.py' });
    expect(f.items[5]!.content).toBe('Please always provide EXACTLY ONE action.');
    expect(f.imported!.formatVersion).toContain('responses API');
  });

  it('an output item of a kind it does not read, or an output that answers no call, is an error naming the field', async () => {
    expect(
      await failure('r.traj.json', traj([...head, response([{ type: 'web_search_call', id: 'ws_1' }])])),
    ).toContain('$.messages[2].output[0].type');
    expect(
      await failure('r.traj.json', traj([...head, { type: 'function_call_output', call_id: 'call_9', output: 'x' }])),
    ).toContain('$.messages[2].call_id');
  });

  it('an image block in an observation is kept on the result by hash; a text-only observation has no blocks, as before', async () => {
    const f = await one(
      'm.traj.json',
      traj([
        ...head,
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command": "python shot.py"}' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'c1',
          content: [
            { type: 'text', text: '<returncode>0</returncode>\n<output>\nsaved\n' },
            { type: 'image_url', image_url: { url: PNG } },
            { type: 'text', text: '</output>' },
          ],
          extra: { returncode: 0 },
        },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command": "ls"}' } }],
        },
        { role: 'tool', tool_call_id: 'c2', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' },
      ]),
    );
    const shot = f.items.find((i) => i.kind === 'tool-result' && i.tool!.callId === 'c1')!;
    expect(shot.content).toBe('<returncode>0</returncode>\n<output>\nsaved\n</output>');
    expect(shot.blocks).toEqual([
      { type: 'text', text: shot.content },
      { type: 'image', mediaType: 'image/png', sha256: sha256(PNG) },
    ]);
    expect(result(f, 'c2')!.blocks).toBeUndefined();
  });

  it('a content block of another kind is still an error naming it', async () => {
    const message = await failure(
      'm.traj.json',
      traj([head[0], { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x' } }] }]),
    );
    expect(message).toContain('$.messages[1].content[0].type');
  });
});

// SWE-agent 1.x as SWE-agent/SWE-agent writes a `.traj` `history`: content a string or a list of blocks (text, and
// `image_url` for SWE-bench Multimodal), sweagent/agent/agents.py and sweagent/agent/history_processors.py.
describe('SWE-agent: image blocks in the history', () => {
  const PNG = 'data:image/png;base64,iVBORw0KGgo=';
  const traj = (issue: unknown) => ({
    trajectory: [],
    info: {},
    history: [
      { role: 'system', content: 'You are an autonomous programmer.', message_type: 'system_prompt' },
      { role: 'user', content: issue, message_type: 'observation' },
      { role: 'assistant', content: 'Looking.', thought: 'Looking.', action: '', message_type: 'action' },
    ],
  });

  it('an image the issue showed is kept by hash beside the task text; a text-only issue has none, as before', async () => {
    const f = await one(
      't.traj',
      traj([
        { type: 'text', text: 'The chart renders wrong:' },
        { type: 'image_url', image_url: { url: PNG } },
      ]),
    );
    expect(f.items.map((i) => [i.origin, i.kind, i.content, i.blocks])).toEqual([
      ['system', 'instruction', 'You are an autonomous programmer.', undefined],
      ['user', 'instruction', 'The chart renders wrong:', undefined],
      ['user', 'instruction', '', [{ type: 'image', mediaType: 'image/png', sha256: sha256(PNG) }]],
      ['model', 'reasoning', 'Looking.', undefined],
    ]);
    const plain = await one('t.traj', traj([{ type: 'text', text: 'The chart renders wrong.' }]));
    expect(plain.items.map((i) => i.blocks)).toEqual([undefined, undefined, undefined]);
  });

  it('a block of any other kind is an error naming it (it was dropped without a word before)', async () => {
    expect(await failure('t.traj', traj([{ type: 'input_audio', input_audio: { data: 'x' } }]))).toContain(
      '$.history[1].content[0].type',
    );
  });
});
