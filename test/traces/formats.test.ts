// One test per format feature the importers read, each with the case it must accept and the case it must treat
// differently: records written here in each recorder's published shape, small enough to check by eye.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import type { Fixture, Item } from '../../src/fixture/schema.js';
import { importFile } from '../../src/traces/import.js';
import { cli } from '../support/cli.js';
import { tempDir } from './support.js';

async function load(name: string, content: unknown, lines = false): Promise<Fixture[]> {
  const path = join(tempDir(), name);
  writeFileSync(
    path,
    lines ? (content as unknown[]).map((l) => JSON.stringify(l)).join('\n') + '\n' : JSON.stringify(content),
  );
  return (await importFile(path, name, { redact: true, tokens: tokenCounter() })).map((t) => t.fixture);
}
const one = async (name: string, content: unknown, lines = false) => (await load(name, content, lines))[0]!;
const result = (f: Fixture, callId: string): Item =>
  f.items.find((i) => i.kind === 'tool-result' && i.tool!.callId === callId)!;
const call = (f: Fixture, callId: string): Item =>
  f.items.find((i) => i.kind === 'tool-call' && i.tool!.callId === callId)!;

describe('SWE-agent 1.x', () => {
  const traj = (history: unknown[]) => ({ trajectory: [], history, info: {} });
  const tc = (id: string, name: string, args: unknown) => ({
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });

  it('pairs role:"tool" messages with their call by tool_call_ids, keeps the arguments whole and reads str_replace_editor fields', async () => {
    const f = await one(
      't.traj',
      traj([
        { role: 'system', content: 'You are an autonomous programmer.', message_type: 'system_prompt' },
        { role: 'user', content: 'Fix the bug in a.py', message_type: 'observation' },
        {
          role: 'assistant',
          content: 'Look first.',
          action: 'str_replace_editor view /r/a.py  --view_range 3 9',
          message_type: 'action',
          tool_calls: [tc('c1', 'str_replace_editor', { command: 'view', path: '/r/a.py', view_range: [3, 9] })],
        },
        { role: 'tool', content: '     3\tx = 1\n     9\ty = 2', tool_call_ids: ['c1'], message_type: 'observation' },
        {
          role: 'assistant',
          content: '',
          action: 'str_replace_editor str_replace /r/a.py',
          message_type: 'action',
          tool_calls: [
            tc('c2', 'str_replace_editor', {
              command: 'str_replace',
              path: '/r/a.py',
              old_str: 'x = 1',
              new_str: 'x = 2',
            }),
          ],
        },
        {
          role: 'tool',
          content: 'No replacement was performed, old_str `x = 1` did not appear verbatim in /r/a.py.',
          tool_call_ids: ['c2'],
          message_type: 'observation',
        },
        {
          role: 'assistant',
          content: '',
          action: 'str_replace_editor str_replace /r/a.py',
          message_type: 'action',
          tool_calls: [
            tc('c3', 'str_replace_editor', {
              command: 'str_replace',
              path: '/r/a.py',
              old_str: 'x = 1\n',
              new_str: 'x = 2\n',
            }),
          ],
        },
        {
          role: 'tool',
          content: 'The file /r/a.py has been edited.',
          tool_call_ids: ['c3'],
          message_type: 'observation',
        },
      ]),
    );
    expect(f.imported!.formatVersion).toBe('1.x function-calling');
    expect(f.items.filter((i) => i.origin === 'system').map((i) => i.content)).toEqual([
      'You are an autonomous programmer.',
    ]);
    expect(result(f, 'c1').source).toEqual({
      identity: '/r/a.py',
      version: 'UNKNOWN',
      mutable: 'UNKNOWN',
      selector: { kind: 'lines', from: 3, to: 9 },
    });
    expect(call(f, 'c2').tool!.arguments).toEqual({
      command: 'str_replace',
      path: '/r/a.py',
      old_str: 'x = 1',
      new_str: 'x = 2',
    });
    expect(result(f, 'c2').status).toEqual({
      state: 'error',
      errorType: 'edit-failed',
      message: 'No replacement was performed, old_str `x = 1` did not appear verbatim in /r/a.py.',
      fields: {},
    });
    expect(call(f, 'c2').effects).toEqual([{ source: '/r/a.py', outcome: 'failed' }]);
    expect(result(f, 'c3').status).toEqual({ state: 'ok' });
    expect(result(f, 'c1').source!.selector).not.toMatchObject({ kind: 'listing' });
    expect(call(f, 'c3').effects).toEqual([{ source: '/r/a.py', outcome: 'succeeded' }]);
  });

  it('refuses a tool message that answers no call, naming the file and its JSON path', async () => {
    await expect(
      load(
        'bad.traj',
        traj([
          { role: 'system', content: 's', message_type: 'system_prompt' },
          { role: 'tool', content: 'orphan', tool_call_ids: ['nope'], message_type: 'observation' },
        ]),
      ),
    ).rejects.toThrow(/bad\.traj.*\$\.history\[1\]\.tool_call_ids.*answers no tool call/);
  });

  it('gives a reused call id its own suffix so each result answers its own call', async () => {
    const f = await one(
      'r.traj',
      traj([
        { role: 'user', content: 'task', message_type: 'observation' },
        {
          role: 'assistant',
          content: '',
          action: 'ls',
          tool_calls: [tc('same', 'bash', { command: 'ls' })],
          message_type: 'action',
        },
        { role: 'tool', content: 'a.py', tool_call_ids: ['same'], message_type: 'observation' },
        {
          role: 'assistant',
          content: '',
          action: 'pwd',
          tool_calls: [tc('same', 'bash', { command: 'pwd' })],
          message_type: 'action',
        },
        { role: 'tool', content: '/r', tool_call_ids: ['same'], message_type: 'observation' },
      ]),
    );
    expect(f.items.filter((i) => i.tool).map((i) => [i.kind, i.tool!.callId, i.content])).toEqual([
      ['tool-call', 'same', expect.any(String)],
      ['tool-result', 'same', 'a.py'],
      ['tool-call', 'same:2', expect.any(String)],
      ['tool-result', 'same:2', '/r'],
    ]);
  });
});

describe('mini-swe-agent v2 text mode', () => {
  const system = { role: 'system', content: 'Reply with one ```mswea_bash_command block.' };
  const task = { role: 'user', content: 'Please solve this issue: x' };

  it('reads a fenced mswea_bash_command block and a <mswea_bash_command> tag as the action; their observations are tool output', async () => {
    const f = await one('m.traj.json', [
      system,
      task,
      { role: 'assistant', content: 'THOUGHT: look.\n\n```mswea_bash_command\ngrep -rn "A\\|B" src\n```' },
      { role: 'user', content: '<returncode>1</returncode>\n<output>\n</output>' },
      { role: 'assistant', content: 'THOUGHT: read it.\n<mswea_bash_command>cat src/a.py</mswea_bash_command>' },
      { role: 'user', content: '<returncode>0</returncode>\n<output>\nprint(1)\n</output>' },
    ]);
    expect(f.imported!.formatVersion).toBe('v2 text (mswea_bash_command)');
    expect(f.items.map((i) => [i.origin, i.kind])).toEqual([
      ['system', 'instruction'],
      ['user', 'instruction'],
      ['model', 'tool-call'],
      ['environment', 'tool-result'],
      ['model', 'tool-call'],
      ['environment', 'tool-result'],
    ]);
    expect(call(f, 'action-1').tool!.arguments).toEqual({ command: 'grep -rn "A\\|B" src' });
    // grep exiting 1 with no output found nothing: a negative result, not a failure.
    expect(result(f, 'action-1')).toMatchObject({ status: { state: 'ok' }, flags: { negativeResult: true } });
    expect(result(f, 'action-2').source).toMatchObject({ identity: 'src/a.py' });
  });

  it('runs nothing for a reply with two blocks: the format error that answers it is the runtime speaking', async () => {
    const f = await one('m2.traj.json', [
      system,
      task,
      { role: 'assistant', content: '```mswea_bash_command\nls\n```\n```mswea_bash_command\npwd\n```' },
      { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.' },
    ]);
    expect(f.items.filter((i) => i.kind === 'tool-call')).toHaveLength(0);
    expect(f.items.at(-1)).toMatchObject({ origin: 'system', kind: 'instruction' });
  });

  it('reads a return code written on lines of its own, as mini-swe-agent before 1.0 wrote it', async () => {
    const f = await one('m0.traj.json', [
      system,
      task,
      { role: 'assistant', content: '```mswea_bash_command\ncat missing.py\n```' },
      {
        role: 'user',
        content: '<returncode>\n1\n</returncode>\n<output>\ncat: missing.py: No such file or directory\n</output>',
      },
      { role: 'assistant', content: '```mswea_bash_command\ncat a.py\n```' },
      { role: 'user', content: '<returncode>\n0\n</returncode>\n<output>\nprint(1)\n</output>' },
    ]);
    expect(result(f, 'action-1').status).toMatchObject({ state: 'error', fields: { exitCode: '1' } });
    expect(result(f, 'action-2').status).toEqual({ state: 'ok' });
  });

  it('reads content saved as a list of text blocks (marked for the prompt cache), and names any other block', async () => {
    const cached = (text: string) => [{ type: 'text', text, cache_control: { type: 'ephemeral' } }];
    const f = await one('mc.traj.json', [
      system,
      { role: 'user', content: cached('Please solve this issue: x') },
      { role: 'assistant', content: '```mswea_bash_command\ncat a.py\n```' },
      { role: 'user', content: cached('<returncode>0</returncode>\n<output>\nprint(1)\n</output>') },
    ]);
    expect(f.items.map((i) => [i.origin, i.kind, i.content.slice(0, 20)])).toEqual([
      ['system', 'instruction', 'Reply with one ```ms'],
      ['user', 'instruction', 'Please solve this is'],
      ['model', 'tool-call', expect.any(String)],
      ['environment', 'tool-result', '<returncode>0</retur'],
    ]);
    await expect(
      one('mi.traj.json', [system, { role: 'user', content: [{ type: 'input_audio', input_audio: 'x' }] }]),
    ).rejects.toThrow(
      /\$\[1\]\.content\[0\]\.type: a content block of type "input_audio"; only text and image blocks are read/,
    );
  });

  it('a failing command keeps its own diagnostic; a cut output makes its read truncated', async () => {
    const f = await one('m3.traj.json', {
      trajectory_format: 'mini-swe-agent-1.1',
      info: { mini_version: '2.0.0', config: {} },
      messages: [
        system,
        task,
        { role: 'assistant', content: 'x', extra: { actions: [{ command: 'python -c "import erfa"' }] } },
        {
          role: 'user',
          content:
            '<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File "<string>", line 1\nModuleNotFoundError: No module named \'erfa\'\n</output>',
          extra: { returncode: 1 },
        },
        { role: 'assistant', content: 'y', extra: { actions: [{ command: 'cat big.py' }] } },
        {
          role: 'user',
          content:
            '<returncode>0</returncode>\n<warning>too long</warning><output_head>\na\n</output_head>\n<elided_chars>\n9000 characters elided\n</elided_chars>\n<output_tail>\nz\n</output_tail>',
          extra: { returncode: 0 },
        },
      ],
    });
    expect(result(f, 'action-1').status).toMatchObject({
      state: 'error',
      message: "ModuleNotFoundError: No module named 'erfa'",
      fields: { exitCode: '1' },
    });
    expect(result(f, 'action-1').status).not.toHaveProperty('synthesized');
    expect(result(f, 'action-2').source).toMatchObject({
      identity: 'big.py',
      selector: { kind: 'whole', truncated: true },
    });
    expect(f.imported!.formatVersion).toBe('mini-swe-agent-1.1, mini 2.0.0, v2 text');
  });
});

describe('OpenHands', () => {
  const ev = (id: number, extra: Record<string, unknown>) => ({
    id,
    timestamp: `2025-05-01T10:00:${String(id).padStart(2, '0')}`,
    source: 'agent',
    message: '',
    ...extra,
  });
  const user = ev(0, { source: 'user', action: 'message', args: { content: 'Fix calc.py' } });

  it('an edit keeps old_str, new_str, file_text and insert_line; a read keeps view_range as a line selector, [1, -1] as the whole file', async () => {
    const f = await one('o.json', [
      user,
      ev(1, {
        action: 'read',
        args: { path: '/w/calc.py', start: 0, end: -1, thought: 'look', view_range: [10, 17], impl_source: 'oh_aci' },
      }),
      ev(2, {
        cause: 1,
        observation: 'read',
        content: "Here's the result of running `cat -n` on /w/calc.py:\n    10\tdef add(a, b):",
        extras: { path: '/w/calc.py' },
      }),
      ev(3, { action: 'read', args: { path: '/w/calc.py', start: 0, end: -1, thought: '', view_range: [1, -1] } }),
      ev(4, { cause: 3, observation: 'read', content: 'whole file', extras: { path: '/w/calc.py' } }),
      ev(5, {
        action: 'edit',
        args: {
          path: '/w/calc.py',
          command: 'insert',
          file_text: null,
          old_str: null,
          new_str: 'import math',
          insert_line: 3,
          thought: '',
        },
      }),
      ev(6, {
        cause: 5,
        observation: 'edit',
        content: 'The file /w/calc.py has been edited.',
        extras: { path: '/w/calc.py' },
      }),
      ev(7, {
        action: 'edit',
        args: {
          path: '/w/new.py',
          command: 'create',
          file_text: 'x = 1\n',
          old_str: null,
          new_str: null,
          insert_line: null,
          thought: '',
        },
      }),
      ev(8, {
        cause: 7,
        observation: 'edit',
        content: 'File created successfully at: /w/new.py',
        extras: { path: '/w/new.py' },
      }),
    ]);
    expect(result(f, 'ev-1').source).toEqual({
      identity: '/w/calc.py',
      version: 'UNKNOWN',
      mutable: 'UNKNOWN',
      selector: { kind: 'lines', from: 10, to: 17 },
    });
    expect(result(f, 'ev-3').source).toEqual({ identity: '/w/calc.py', version: 'UNKNOWN', mutable: 'UNKNOWN' });
    expect(call(f, 'ev-5').tool!.arguments).toMatchObject({
      command: 'insert',
      new_str: 'import math',
      insert_line: 3,
      path: '/w/calc.py',
    });
    expect(call(f, 'ev-7').tool!.arguments).toMatchObject({ command: 'create', file_text: 'x = 1\n' });
    expect(call(f, 'ev-7').effects).toEqual([{ source: '/w/new.py', outcome: 'succeeded' }]);
    expect(call(f, 'ev-1').tool!.arguments).not.toHaveProperty('thought');
  });

  it('an edit observation "ERROR: No replacement was performed" is an error with a failed effect', async () => {
    const f = await one('o2.json', [
      user,
      ev(1, {
        action: 'edit',
        args: { path: '/w/calc.py', command: 'str_replace', old_str: 'a - b', new_str: 'a + b', thought: '' },
      }),
      ev(2, {
        cause: 1,
        observation: 'edit',
        content: 'ERROR:\nNo replacement was performed, old_str `a - b` did not appear verbatim in /w/calc.py.',
        extras: {},
      }),
    ]);
    expect(result(f, 'ev-1').status).toMatchObject({
      state: 'error',
      errorType: 'edit-failed',
      message: 'No replacement was performed, old_str `a - b` did not appear verbatim in /w/calc.py.',
    });
    expect(call(f, 'ev-1').effects).toEqual([{ source: '/w/calc.py', outcome: 'failed' }]);
  });

  it('a command still running (exit -1) is not an error; one that exits 2 is, in its own words', async () => {
    const f = await one('o3.json', [
      user,
      ev(1, { action: 'run', args: { command: 'npm run serve', thought: '' } }),
      ev(2, { cause: 1, observation: 'run', content: 'listening on :3000', extras: { metadata: { exit_code: -1 } } }),
      ev(3, { action: 'run', args: { command: 'make build', thought: '' } }),
      ev(4, {
        cause: 3,
        observation: 'run',
        content: 'make: *** No rule to make target `build`.\nerror: build failed',
        extras: { metadata: { exit_code: 2 } },
      }),
    ]);
    expect(result(f, 'ev-1')).toMatchObject({
      status: { state: 'ok' },
      flags: { transientState: true, negativeResult: false },
    });
    expect(result(f, 'ev-3').status).toMatchObject({
      state: 'error',
      errorType: 'exit-code',
      message: 'error: build failed',
      fields: { exitCode: '2' },
    });
  });

  it('think is the model reasoning, not a system instruction, and its acknowledgement is left out', async () => {
    const f = await one('o4.json', [
      user,
      ev(1, { action: 'think', args: { thought: 'The sign is wrong in add.' } }),
      ev(2, { cause: 1, observation: 'think', content: 'Your thought has been logged.', extras: {} }),
    ]);
    expect(f.items.map((i) => [i.origin, i.kind, i.content])).toEqual([
      ['user', 'instruction', 'Fix calc.py'],
      ['model', 'reasoning', 'The sign is wrong in add.'],
    ]);
  });

  it('an evaluation output.jsonl holds one session per instance, each its own fixture', async () => {
    const history = (n: string) => [
      ev(0, { source: 'user', action: 'message', args: { content: `task ${n}` } }),
      ev(1, { action: 'run', args: { command: 'ls', thought: '' } }),
      ev(2, { cause: 1, observation: 'run', content: 'a', extras: { metadata: { exit_code: 0 } } }),
    ];
    const fs = await load(
      'output.jsonl',
      [
        { instance_id: 'org__repo-1', history: history('1') },
        { instance_id: 'org__repo-2', history: history('2') },
      ],
      true,
    );
    expect(fs.map((f) => [f.id, f.items[0]!.content, f.imported!.formatVersion])).toEqual([
      ['openhands.output.org__repo-1', 'task 1', 'evaluation output'],
      ['openhands.output.org__repo-2', 'task 2', 'evaluation output'],
    ]);
  });

  it('legacy flattened events: arguments beside `action`, each observation answering the action before it', async () => {
    const f = await one(
      'legacy.jsonl',
      [
        {
          instance_id: 'x',
          history: [
            { content: 'Fix it', images_urls: null, wait_for_response: false, action: 'message' },
            { command: 'cat LICENSE', thought: 'read it', keep_prompt: true, action: 'run' },
            { content: 'MIT', command_id: -1, command: 'cat LICENSE', exit_code: 0, observation: 'run' },
            { command: 'grep -r TODO .', thought: '', action: 'run' },
            { content: '', command_id: -1, command: 'grep -r TODO .', exit_code: 1, observation: 'run' },
          ],
        },
      ],
      true,
    );
    expect(f.imported!.formatVersion).toBe('evaluation output, legacy flattened events');
    expect(f.items[0]).toMatchObject({ origin: 'user', kind: 'instruction', content: 'Fix it' });
    expect(call(f, 'ev-1')).toMatchObject({
      content: 'read it\ncat LICENSE',
      tool: { name: 'shell.read', arguments: { command: 'cat LICENSE', keep_prompt: true } },
    });
    // command_id -1 is not an exit code: the read succeeded.
    expect(result(f, 'ev-1')).toMatchObject({ status: { state: 'ok' }, source: { identity: 'LICENSE' } });
    expect(result(f, 'ev-3')).toMatchObject({ status: { state: 'ok' }, flags: { negativeResult: true } });
  });

  describe('a condensation (CondensationAction) ends the context: the next session starts from the view it left', () => {
    // OpenHands' View.from_events: the history less every forgotten event (the condensation and any request among
    // them), the latest summary inserted at its offset; agent state changes are not in the history.
    const first = [
      ev(0, { source: 'agent', action: 'system', args: { content: 'You are OpenHands agent.' } }),
      // Not in the agent's history: it holds no place in the view a summary's offset counts in.
      ev(1, {
        source: 'environment',
        observation: 'agent_state_changed',
        content: '',
        extras: { agent_state: 'running' },
      }),
      ev(2, { source: 'user', action: 'message', args: { content: 'Fix calc.py' } }),
    ];
    const look = [
      ev(3, { action: 'read', args: { path: '/w/calc.py', start: 0, end: -1, thought: '' } }),
      ev(4, { cause: 3, observation: 'read', content: 'x = 1', extras: { path: '/w/calc.py' } }),
    ];
    const tail = [
      ev(5, { action: 'run', args: { command: 'pytest', thought: '' } }),
      ev(6, { cause: 5, observation: 'run', content: '1 passed', extras: { metadata: { exit_code: 0 } } }),
    ];
    const condensation = (args: Record<string, unknown>) =>
      ev(7, { source: 'agent', action: 'condensation', args: { summary: null, summary_offset: null, ...args } });
    const after = [ev(8, { action: 'finish', args: { final_thought: 'Fixed.' } })];
    const shown = (f: Fixture) => f.items.map((i) => [i.origin, i.kind, i.tool?.callId ?? i.content]);

    it('forgetting a read and its observation, by id list or by range, leaves two sessions, the summary at its offset', async () => {
      for (const forgets of [
        { forgotten_event_ids: [3, 4] },
        { forgotten_events_start_id: 3, forgotten_events_end_id: 4 },
      ]) {
        const fs = await load('long.json', [
          ...first,
          ...look,
          ...tail,
          condensation({ ...forgets, summary: 'Read calc.py: x = 1.', summary_offset: 2 }),
          ...after,
        ]);
        expect(fs.map((f) => f.id)).toEqual(['openhands.long', 'openhands.long.after-condensation-1']);
        expect(shown(fs[0]!)).toEqual([
          ['system', 'instruction', 'You are OpenHands agent.'],
          ['user', 'instruction', 'Fix calc.py'],
          ['model', 'tool-call', 'ev-3'],
          ['environment', 'tool-result', 'ev-3'],
          ['model', 'tool-call', 'ev-5'],
          ['environment', 'tool-result', 'ev-5'],
        ]);
        expect(shown(fs[1]!)).toEqual([
          ['system', 'instruction', 'You are OpenHands agent.'],
          ['user', 'instruction', 'Fix calc.py'],
          ['system', 'instruction', 'Read calc.py: x = 1.'],
          ['model', 'tool-call', 'ev-5'],
          ['environment', 'tool-result', 'ev-5'],
          ['model', 'reasoning', 'Fixed.'],
        ]);
        expect(fs[1]!.prunePoints.map((p) => [p.id, p.subgoal])).toEqual([['end', 'Fix calc.py']]);
        expect(fs[1]!.imported!.formatVersion).toBe('event stream');
      }
    });

    it('without a summary the forgotten events are still gone; a condensation request changes nothing', async () => {
      const bare = await load('bare.json', [
        ...first,
        ...look,
        ...tail,
        condensation({ forgotten_event_ids: [3, 4] }),
        ...after,
      ]);
      expect(bare.map((f) => f.id)).toEqual(['openhands.bare', 'openhands.bare.after-condensation-1']);
      expect(shown(bare[1]!)).toEqual([
        ['system', 'instruction', 'You are OpenHands agent.'],
        ['user', 'instruction', 'Fix calc.py'],
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
        ['model', 'reasoning', 'Fixed.'],
      ]);
      const request = ev(7, { source: 'user', action: 'condensation_request', args: {} });
      const whole = await load('whole.json', [...first, ...look, ...tail, ...after]);
      const asked = await load('asked.json', [...first, ...look, ...tail, request, ...after]);
      expect(whole.map((f) => f.id)).toEqual(['openhands.whole']);
      expect(asked.map((f) => shown(f))).toEqual(whole.map((f) => shown(f)));
      expect(shown(whole[0]!).map((i) => i[2])).toEqual([
        'You are OpenHands agent.',
        'Fix calc.py',
        'ev-3',
        'ev-3',
        'ev-5',
        'ev-5',
        'Fixed.',
      ]);
    });

    // ConversationMemory._ensure_initial_user_message (openhands/memory/conversation_memory.py): the second event
    // sent is a user message; when it is not, the first user message of the whole history goes there.
    it('the first user message goes back after the system message when a condensation forgot it, not twice when kept', async () => {
      const forgot = await load('forgot.json', [
        ...first,
        ...look,
        ...tail,
        condensation({ forgotten_event_ids: [2, 3, 4], summary: 'Read calc.py: x = 1.', summary_offset: 1 }),
        ...after,
      ]);
      expect(shown(forgot[1]!)).toEqual([
        ['system', 'instruction', 'You are OpenHands agent.'],
        ['user', 'instruction', 'Fix calc.py'],
        ['system', 'instruction', 'Read calc.py: x = 1.'],
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
        ['model', 'reasoning', 'Fixed.'],
      ]);
      expect(forgot[1]!.prunePoints.map((p) => p.subgoal)).toEqual(['Fix calc.py']);
      const kept = await load('kept.json', [...first, ...look, ...tail, condensation({ forgotten_event_ids: [3, 4] })]);
      expect(kept[1]!.items.filter((i) => i.origin === 'user').map((i) => i.content)).toEqual(['Fix calc.py']);
    });

    it('any user message second is left there; without a system message the first user message goes first', async () => {
      const again = [
        ev(5, { source: 'user', action: 'message', args: { content: 'Now run the tests' } }),
        ev(6, { action: 'run', args: { command: 'pytest', thought: '' } }),
        ev(7, { cause: 6, observation: 'run', content: '1 passed', extras: { metadata: { exit_code: 0 } } }),
      ];
      const later = await load('later.json', [
        ...first,
        ...look,
        ...again,
        ev(8, { source: 'agent', action: 'condensation', args: { forgotten_event_ids: [2, 3, 4] } }),
      ]);
      expect(shown(later[1]!)).toEqual([
        ['system', 'instruction', 'You are OpenHands agent.'],
        ['user', 'instruction', 'Now run the tests'],
        ['model', 'tool-call', 'ev-6'],
        ['environment', 'tool-result', 'ev-6'],
      ]);
      // Recorded before the system prompt was an event: OpenHands puts its own first, then the user message.
      const unprompted = await load('unprompted.json', [
        ...first.slice(1),
        ...look,
        ...tail,
        condensation({ forgotten_event_ids: [2, 3, 4], summary: 'Read calc.py: x = 1.', summary_offset: 0 }),
      ]);
      expect(shown(unprompted[1]!)).toEqual([
        ['user', 'instruction', 'Fix calc.py'],
        ['system', 'instruction', 'Read calc.py: x = 1.'],
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
      ]);
    });

    // ConversationMemory.process_events sends a model response's calls once every one has its result, each result
    // with its response (`tool_call_metadata`: the call's id and the response it came in).
    const metadata = (id: string, response: string, calls: string[] = [id]) => ({
      tool_call_metadata: {
        function_name: 'f',
        tool_call_id: id,
        model_response: {
          id: response,
          choices: [{ message: { role: 'assistant', content: '', tool_calls: calls.map((c) => ({ id: c })) } }],
        },
        total_calls_in_response: calls.length,
      },
    });
    const paired = (readCalls?: string[], runCalls?: string[]) => {
      const read = metadata('t3', readCalls ? 'r' : 'r3', readCalls);
      const run = metadata('t5', runCalls ? 'r' : 'r5', runCalls);
      return [
        { ...look[0]!, ...read },
        { ...look[1]!, ...read },
        { ...tail[0]!, ...run },
        { ...tail[1]!, ...run },
      ];
    };
    const forgetting = async (name: string, events: unknown[], ids: number[]) =>
      shown((await load(name, [...first, ...events, condensation({ forgotten_event_ids: ids }), ...after]))[1]!);
    const head = [
      ['system', 'instruction', 'You are OpenHands agent.'],
      ['user', 'instruction', 'Fix calc.py'],
    ];
    const finish = ['model', 'reasoning', 'Fixed.'];

    it('a result whose call was forgotten is dropped, one whose call was kept stays (function calling)', async () => {
      expect(await forgetting('no-call.json', paired(), [3])).toEqual([
        ...head,
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
        finish,
      ]);
      // Without tool_call_metadata OpenHands sends an observation as a message of its own.
      expect(await forgetting('no-call-plain.json', [...look, ...tail], [3])).toEqual([
        ...head,
        ['system', 'instruction', 'x = 1'],
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
        finish,
      ]);
    });

    it('a call whose result was forgotten is dropped, one with its result stays (function calling)', async () => {
      expect(await forgetting('no-result.json', paired(), [4])).toEqual([
        ...head,
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
        finish,
      ]);
      expect(await forgetting('no-result-plain.json', [...look, ...tail], [4])).toEqual([
        ...head,
        ['model', 'tool-call', 'ev-3'],
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
        finish,
      ]);
    });

    it('calls of one response go out together: all, or none when a result is missing', async () => {
      const both = paired(['t3', 't5'], ['t3', 't5']);
      // The read's call was forgotten, but the response the run's call came in carries it, and both results are there.
      expect(await forgetting('batch-call.json', both, [3])).toEqual([
        ...head,
        ['model', 'tool-call', 'ev-3'],
        ['environment', 'tool-result', 'ev-3'],
        ['model', 'tool-call', 'ev-5'],
        ['environment', 'tool-result', 'ev-5'],
        finish,
      ]);
      // The read's result was forgotten: the response never goes out, the run's call and result with it.
      expect(await forgetting('batch-result.json', both, [4])).toEqual([...head, finish]);
    });

    it('in an evaluation output.jsonl the next session is named after its instance', async () => {
      const history = [...first, ...look, ...tail, condensation({ forgotten_event_ids: [3, 4] }), ...after];
      const fs = await load(
        'output.jsonl',
        [
          { instance_id: 'org__repo-1', history },
          { instance_id: 'org__repo-2', history: [...first, ...look] },
        ],
        true,
      );
      expect(fs.map((f) => f.id)).toEqual([
        'openhands.output.org__repo-1',
        'openhands.output.org__repo-1.after-condensation-1',
        'openhands.output.org__repo-2',
      ]);
      expect(fs[1]!.imported!.formatVersion).toBe('evaluation output');
    });
  });
});

describe('OpenHands V1 (software-agent-sdk events)', () => {
  // Events as the SDK serializes them (openhands-sdk `event/`, openhands-tools `terminal/`, `file_editor/`): `kind`
  // is the class name, and a conversation is one file per event (read here as their JSON list).
  let n = 0;
  const at = () => `2026-02-05T11:24:${String(n).padStart(2, '0')}.000000`;
  const evt = (kind: string, source: string, extra: Record<string, unknown>) => ({
    id: `e-${++n}`,
    timestamp: at(),
    source,
    ...extra,
    kind,
  });
  const text = (t: string) => [{ cache_prompt: false, type: 'text', text: t }];
  const system = (extra: Record<string, unknown> = {}) =>
    evt('SystemPromptEvent', 'agent', {
      system_prompt: { cache_prompt: false, type: 'text', text: 'You are OpenHands agent.' },
      tools: [],
      ...extra,
    });
  const message = (source: string, t: string, extra: Record<string, unknown> = {}) =>
    evt('MessageEvent', source, {
      llm_message: { role: source === 'agent' ? 'assistant' : 'user', content: text(t), thinking_blocks: [] },
      activated_skills: [],
      extended_content: [],
      ...extra,
    });
  const action = (
    id: string,
    tool: string,
    act: Record<string, unknown> | null,
    response: string,
    thought = '',
    sent?: Record<string, unknown>,
  ) =>
    evt('ActionEvent', 'agent', {
      thought: thought ? text(thought) : [],
      thinking_blocks: [],
      reasoning_content: 'private chain of thought',
      action: act,
      tool_name: tool,
      tool_call_id: id,
      tool_call: {
        id,
        name: tool,
        arguments: JSON.stringify(sent ?? Object.fromEntries(Object.entries(act ?? {}).filter(([k]) => k !== 'kind'))),
        origin: 'completion',
      },
      llm_response_id: response,
      security_risk: 'LOW',
    });
  const terminal = (command: string, extra: Record<string, unknown> = {}) => ({
    command,
    is_input: false,
    timeout: null,
    reset: false,
    kind: 'TerminalAction',
    ...extra,
  });
  const editor = (command: string, path: string, extra: Record<string, unknown> = {}) => ({
    command,
    path,
    file_text: null,
    old_str: null,
    new_str: null,
    insert_line: null,
    view_range: null,
    kind: 'FileEditorAction',
    ...extra,
  });
  const observation = (id: string, tool: string, obs: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    evt('ObservationEvent', 'environment', {
      tool_name: tool,
      tool_call_id: id,
      observation: obs,
      action_id: 'a',
      ...extra,
    });
  const shellResult = (command: string, output: string, exit: number, extra: Record<string, unknown> = {}) => ({
    content: text(output),
    is_error: false,
    command,
    exit_code: exit,
    timeout: false,
    metadata: {
      exit_code: exit,
      pid: -1,
      username: 'openhands',
      hostname: 'runtime',
      working_dir: '/w',
      py_interpreter_path: null,
      prefix: '',
      suffix: exit === -1 ? '' : `\n[The command completed with exit code ${exit}.]`,
    },
    kind: 'TerminalObservation',
    ...extra,
  });
  const editResult = (command: string, path: string, output: string, isError = false) => ({
    content: text(output),
    is_error: isError,
    command,
    path,
    prev_exist: true,
    old_content: null,
    new_content: null,
    kind: 'FileEditorObservation',
  });
  const task = () => [system(), message('user', 'Fix calc.py')];

  it('detects a list of V1 events and {"events": [...]}; a list of kinds the model is never sent, or V0 events, is not V1', async () => {
    const events = [...task(), message('agent', 'Done.', { llm_response_id: 'r1' })];
    const listed = await one('conv.json', events);
    const wrapped = await one('wrapped.json', { events });
    for (const f of [listed, wrapped]) {
      expect(f.imported).toMatchObject({ format: 'openhands', formatVersion: 'V1 event stream (software-agent-sdk)' });
      expect(f.items.map((i) => [i.origin, i.kind, i.content])).toEqual([
        ['system', 'instruction', 'You are OpenHands agent.'],
        ['user', 'instruction', 'Fix calc.py'],
        ['model', 'reasoning', 'Done.'],
      ]);
    }
    // Only state updates: nothing the model saw, so no recognised session.
    await expect(
      load('state.json', [
        evt('ConversationStateUpdateEvent', 'environment', { key: 'execution_status', value: 'idle' }),
      ]),
    ).rejects.toThrow(/state\.json: unknown trace format/);
    const v0 = await one('v0.json', [
      {
        id: 0,
        timestamp: '2025-05-01T10:00:00',
        source: 'user',
        message: '',
        action: 'message',
        args: { content: 'x' },
      },
    ]);
    expect(v0.imported!.formatVersion).toBe('event stream');
  });

  it("the system prompt and its dynamic context are the runtime's; a message from anyone but the person is too; thinking is left out, unknown kinds skipped", async () => {
    const f = await one('msgs.json', [
      system({ dynamic_context: { cache_prompt: false, type: 'text', text: 'Repo: org/calc' } }),
      message('user', 'Fix calc.py', {
        extended_content: [{ cache_prompt: false, type: 'text', text: '<skill>python</skill>' }],
      }),
      evt('ConversationStateUpdateEvent', 'environment', { key: 'execution_status', value: 'running' }),
      message('hook', 'A hook says: lint first.'),
      message('agent', 'Looking.', {
        llm_response_id: 'r1',
        llm_message: {
          role: 'assistant',
          content: text('Looking.'),
          reasoning_content: 'hidden',
          thinking_blocks: [{ type: 'thinking', thinking: 'hidden too', signature: 's' }],
        },
      }),
      evt('PauseEvent', 'user', {}),
      evt('TokenEvent', 'agent', { prompt_token_ids: [1], response_token_ids: [2] }),
    ]);
    expect(f.items.map((i) => [i.origin, i.kind, i.content])).toEqual([
      ['system', 'instruction', 'You are OpenHands agent.\nRepo: org/calc'],
      ['user', 'instruction', 'Fix calc.py'],
      ['system', 'instruction', '<skill>python</skill>'],
      ['system', 'instruction', 'A hook says: lint first.'],
      ['model', 'reasoning', 'Looking.'],
    ]);
    expect(f.prunePoints.at(-1)!.subgoal).toBe('Fix calc.py');
  });

  it('actions of one LLM response are one turn, its thought before them; another response is another turn', async () => {
    const f = await one('turns.json', [
      ...task(),
      action('c1', 'terminal', terminal('ls'), 'r1', 'Two looks at once.'),
      action('c2', 'terminal', terminal('pwd'), 'r1'),
      observation('c1', 'terminal', shellResult('ls', 'calc.py', 0)),
      observation('c2', 'terminal', shellResult('pwd', '/w', 0)),
      action('c3', 'terminal', terminal('cat calc.py'), 'r2'),
      observation('c3', 'terminal', shellResult('cat calc.py', 'x = 1', 0)),
    ]);
    expect(f.items.map((i) => [i.turn, i.kind, i.tool?.callId ?? i.content])).toEqual([
      [0, 'instruction', 'You are OpenHands agent.'],
      [0, 'instruction', 'Fix calc.py'],
      [1, 'reasoning', 'Two looks at once.'],
      [1, 'tool-call', 'c1'],
      [1, 'tool-call', 'c2'],
      [1, 'tool-result', 'c1'],
      [1, 'tool-result', 'c2'],
      [2, 'tool-call', 'c3'],
      [2, 'tool-result', 'c3'],
    ]);
    // The reasoning content of the response is not resent, so it is not an item.
    expect(f.items.some((i) => i.content.includes('private chain of thought'))).toBe(false);
    expect(call(f, 'c1').tool!.arguments).toEqual({ command: 'ls', is_input: false, timeout: null, reset: false });
  });

  it('a terminal result: exit 0 ok with what the model saw; grep exiting 1 found nothing; -1 still running; 2 an error in its own words; is_error alone an error', async () => {
    const f = await one('term.json', [
      ...task(),
      action('c1', 'terminal', terminal('cat calc.py'), 'r1'),
      observation('c1', 'terminal', shellResult('cat calc.py', 'x = 1', 0)),
      action('c2', 'terminal', terminal('grep -rn TODO .'), 'r2'),
      observation('c2', 'terminal', shellResult('grep -rn TODO .', '', 1)),
      action('c3', 'terminal', terminal('npm run serve'), 'r3'),
      observation('c3', 'terminal', shellResult('npm run serve', 'listening on :3000', -1)),
      action('c4', 'terminal', terminal('make build'), 'r4'),
      observation('c4', 'terminal', shellResult('make build', 'make: *** No rule.\nerror: build failed', 2)),
      action('c5', 'terminal', terminal('ls; pwd'), 'r5'),
      observation('c5', 'terminal', {
        ...shellResult('ls; pwd', 'ERROR: Cannot execute multiple commands at once.', -1),
        is_error: true,
        exit_code: null,
        metadata: { exit_code: -1, pid: -1, prefix: '', suffix: '' },
      }),
      action('c6', 'terminal', terminal('C-c', { is_input: true }), 'r6'),
      observation('c6', 'terminal', shellResult('C-c', '^C', 130)),
    ]);
    expect(result(f, 'c1')).toMatchObject({
      status: { state: 'ok' },
      content:
        'x = 1\n[The command completed with exit code 0.]\n[Current working directory: /w]\n[Command finished with exit code 0]',
      source: { identity: 'calc.py', version: 'UNKNOWN', mutable: 'UNKNOWN' },
      flags: { negativeResult: false },
    });
    expect(result(f, 'c2')).toMatchObject({ status: { state: 'ok' }, flags: { negativeResult: true } });
    expect(result(f, 'c3')).toMatchObject({ status: { state: 'ok' }, flags: { transientState: true } });
    expect(result(f, 'c4').status).toMatchObject({
      state: 'error',
      errorType: 'exit-code',
      message: 'error: build failed',
      fields: { exitCode: '2' },
    });
    expect(result(f, 'c5')).toMatchObject({
      status: { state: 'error', errorType: 'tool-error', message: 'ERROR: Cannot execute multiple commands at once.' },
      content: '[An error occurred during execution.]\nERROR: Cannot execute multiple commands at once.',
    });
    // Keys sent to a running process are no shell command: nothing parsed, no file read or written.
    expect(call(f, 'c6').tool!.name).toBe('shell.input');
    expect(result(f, 'c6').flags.transientState).toBe(true);
    expect(call(f, 'c1').tool!.name).toBe('shell.read');
  });

  it('before November 2025 a result held `output` and `error`: ExecuteBashObservation and StrReplaceEditorObservation read alike', async () => {
    const f = await one('legacy-v1.json', [
      ...task(),
      action(
        'c1',
        'execute_bash',
        { command: 'python t.py', is_input: false, timeout: null, kind: 'ExecuteBashAction' },
        'r1',
      ),
      observation('c1', 'execute_bash', {
        output: 'Traceback (most recent call last):\nValueError: bad',
        command: 'python t.py',
        exit_code: 1,
        error: false,
        timeout: false,
        metadata: { exit_code: 1, pid: 1, prefix: '', suffix: '' },
        kind: 'ExecuteBashObservation',
      }),
      action(
        'c2',
        'str_replace_editor',
        {
          ...editor('str_replace', '/w/calc.py', { old_str: 'a - b', new_str: 'a + b' }),
          kind: 'StrReplaceEditorAction',
        },
        'r2',
      ),
      observation('c2', 'str_replace_editor', {
        command: 'str_replace',
        output: '',
        path: '/w/calc.py',
        error: 'No replacement was performed, old_str `a - b` did not appear verbatim in /w/calc.py.',
        kind: 'StrReplaceEditorObservation',
      }),
      action('c3', 'str_replace_editor', { ...editor('view', '/w/calc.py'), kind: 'StrReplaceEditorAction' }, 'r3'),
      observation('c3', 'str_replace_editor', {
        command: 'view',
        output: "Here's the result of running `cat -n` on /w/calc.py:\n     1\tx = 1",
        path: '/w/calc.py',
        error: null,
        kind: 'StrReplaceEditorObservation',
      }),
    ]);
    expect(result(f, 'c1').status).toMatchObject({
      state: 'error',
      message: 'ValueError: bad',
      fields: { exitCode: '1' },
    });
    expect(result(f, 'c2')).toMatchObject({
      status: {
        state: 'error',
        errorType: 'edit-failed',
        message: expect.stringMatching(/^No replacement was performed/),
      },
      content: 'No replacement was performed, old_str `a - b` did not appear verbatim in /w/calc.py.',
    });
    expect(call(f, 'c2').effects).toEqual([{ source: '/w/calc.py', outcome: 'failed' }]);
    expect(result(f, 'c3')).toMatchObject({ status: { state: 'ok' }, source: { identity: '/w/calc.py' } });
  });

  it('the file editor: view_range is a line selector ([1, -1] the whole file), a directory view a listing; edits keep their fields and their outcome', async () => {
    const f = await one('edit.json', [
      ...task(),
      action('c1', 'file_editor', editor('view', '/w/calc.py', { view_range: [10, 17] }), 'r1'),
      observation('c1', 'file_editor', editResult('view', '/w/calc.py', '    10\tdef add(a, b):')),
      action('c2', 'file_editor', editor('view', '/w/calc.py', { view_range: [1, -1] }), 'r2'),
      observation('c2', 'file_editor', editResult('view', '/w/calc.py', '     1\tx = 1')),
      action('c3', 'file_editor', editor('view', '/w'), 'r3'),
      observation(
        'c3',
        'file_editor',
        editResult('view', '/w', "Here's the files and directories up to 2 levels deep in /w"),
      ),
      action('c4', 'file_editor', editor('str_replace', '/w/calc.py', { old_str: 'a - b', new_str: 'a + b' }), 'r4'),
      observation(
        'c4',
        'file_editor',
        editResult(
          'str_replace',
          '/w/calc.py',
          'No replacement was performed, old_str `a - b` did not appear verbatim in /w/calc.py.',
          true,
        ),
      ),
      action('c5', 'file_editor', editor('insert', '/w/calc.py', { new_str: 'import math', insert_line: 3 }), 'r5'),
      observation('c5', 'file_editor', editResult('insert', '/w/calc.py', 'The file /w/calc.py has been edited.')),
      action('c6', 'file_editor', editor('create', '/w/new.py', { file_text: 'x = 1\n' }), 'r6'),
      observation('c6', 'file_editor', editResult('create', '/w/new.py', 'File created successfully at: /w/new.py')),
    ]);
    expect(result(f, 'c1').source).toEqual({
      identity: '/w/calc.py',
      version: 'UNKNOWN',
      mutable: 'UNKNOWN',
      selector: { kind: 'lines', from: 10, to: 17 },
    });
    expect(result(f, 'c2').source).toEqual({ identity: '/w/calc.py', version: 'UNKNOWN', mutable: 'UNKNOWN' });
    expect(result(f, 'c3').source!.selector).toEqual({ kind: 'listing', query: '/w' });
    // A view changes nothing.
    expect(call(f, 'c1').tool!.name).toBe('file_editor');
    expect(call(f, 'c1').effects).toBeUndefined();
    expect(result(f, 'c4')).toMatchObject({
      status: {
        state: 'error',
        errorType: 'edit-failed',
        message: 'No replacement was performed, old_str `a - b` did not appear verbatim in /w/calc.py.',
      },
      content:
        '[An error occurred during execution.]\nNo replacement was performed, old_str `a - b` did not appear verbatim in /w/calc.py.',
    });
    expect(result(f, 'c4').source).toBeUndefined();
    expect(call(f, 'c4').effects).toEqual([{ source: '/w/calc.py', outcome: 'failed' }]);
    expect(call(f, 'c5').tool!.arguments).toMatchObject({ command: 'insert', new_str: 'import math', insert_line: 3 });
    expect(call(f, 'c5').effects).toEqual([{ source: '/w/calc.py', outcome: 'succeeded' }]);
    expect(call(f, 'c6')).toMatchObject({
      tool: { arguments: { command: 'create', file_text: 'x = 1\n' } },
      effects: [{ source: '/w/new.py', outcome: 'succeeded' }],
    });
  });

  it("an AgentErrorEvent is its call's error result, a rejection too; a result no call in the view made is dropped", async () => {
    const f = await one('errs.json', [
      ...task(),
      // A call the SDK could not run carries no action: its arguments are what the model sent.
      action('c1', 'file_editor', null, 'r1', '', { command: 'view' }),
      evt('AgentErrorEvent', 'agent', {
        tool_name: 'file_editor',
        tool_call_id: 'c1',
        error: 'Error validating args {"command": "view"} for tool \'file_editor\': path is required',
      }),
      action('c2', 'file_editor', editor('create', '/w/x.py', { file_text: 'y' }), 'r2'),
      evt('UserRejectObservation', 'user', {
        tool_name: 'file_editor',
        tool_call_id: 'c2',
        rejection_reason: 'Not that file',
        rejection_source: 'user',
        action_id: 'a',
      }),
      observation('nobody', 'terminal', shellResult('ls', 'x', 0)),
    ]);
    expect(call(f, 'c1').tool!.arguments).toEqual({ command: 'view' });
    expect(result(f, 'c1')).toMatchObject({
      status: { state: 'error', errorType: 'agent-error', message: expect.stringMatching(/^Error validating args/) },
    });
    expect(result(f, 'c2')).toMatchObject({
      content: 'Action rejected: Not that file',
      status: { state: 'error', errorType: 'rejected', message: 'Not that file' },
    });
    expect(call(f, 'c2').effects).toEqual([{ source: '/w/x.py', outcome: 'failed' }]);
    expect(f.items.filter((i) => i.kind === 'tool-result')).toHaveLength(2);
  });

  // What `View.from_events` enforces before the view goes out (openhands-sdk `context/view/properties/`).
  const shape = (f: Fixture) => f.items.map((i) => [i.kind, i.tool?.callId ?? i.content]);
  const thinking = (e: Record<string, unknown>) => ({
    ...e,
    thinking_blocks: [{ type: 'thinking', thinking: 'hidden', signature: 's' }],
  });

  it('a call with no result in the view is dropped with the thought it carries, even the last one of the recording; a call with its result stays', async () => {
    const f = await one('pending.json', [
      ...task(),
      action('c1', 'terminal', terminal('cat calc.py'), 'r1', 'Reading first.'),
      observation('c1', 'terminal', shellResult('cat calc.py', 'x = 1', 0)),
      // Interrupted before its result and never answered: every later view drops it.
      action('c2', 'terminal', terminal('make'), 'r2', 'Building.'),
      message('user', 'Run the tests instead'),
      action('c3', 'terminal', terminal('pytest'), 'r3'),
      observation('c3', 'terminal', shellResult('pytest', '1 passed', 0)),
      // The recording stops before this result arrived: the next step would run it before asking the model again.
      action('c4', 'file_editor', editor('view', '/w/calc.py'), 'r4', 'One more look.'),
    ]);
    expect(shape(f)).toEqual([
      ['instruction', 'You are OpenHands agent.'],
      ['instruction', 'Fix calc.py'],
      ['reasoning', 'Reading first.'],
      ['tool-call', 'c1'],
      ['tool-result', 'c1'],
      ['instruction', 'Run the tests instead'],
      ['tool-call', 'c3'],
      ['tool-result', 'c3'],
    ]);
    expect(f.prunePoints.map((p) => p.id)).toEqual(['task-1', 'end']);
  });

  it('a response whose calls are not all answered is dropped whole, calls, thought and results; a response answered in full stays', async () => {
    const f = await one('batch.json', [
      ...task(),
      action('c1', 'terminal', terminal('ls'), 'r1', 'Two looks at once.'),
      action('c2', 'terminal', terminal('pwd'), 'r1'),
      observation('c1', 'terminal', shellResult('ls', 'calc.py', 0)),
      observation('c2', 'terminal', shellResult('pwd', '/w', 0)),
      action('c3', 'terminal', terminal('cat calc.py'), 'r2', 'Read and test.'),
      action('c4', 'terminal', terminal('pytest'), 'r2'),
      observation('c3', 'terminal', shellResult('cat calc.py', 'x = 1', 0)),
    ]);
    expect(shape(f)).toEqual([
      ['instruction', 'You are OpenHands agent.'],
      ['instruction', 'Fix calc.py'],
      ['reasoning', 'Two looks at once.'],
      ['tool-call', 'c1'],
      ['tool-call', 'c2'],
      ['tool-result', 'c1'],
      ['tool-result', 'c2'],
    ]);
  });

  it('a second result for one call is dropped, the first kept (a crash recovery error, then the late observation)', async () => {
    const f = await one('twice.json', [
      ...task(),
      action('c1', 'terminal', terminal('make'), 'r1'),
      evt('AgentErrorEvent', 'agent', { tool_name: 'terminal', tool_call_id: 'c1', error: 'Tool call interrupted.' }),
      observation('c1', 'terminal', shellResult('make', 'built', 0)),
      action('c2', 'terminal', terminal('ls'), 'r2'),
      observation('c2', 'terminal', shellResult('ls', 'calc.py', 0)),
    ]);
    expect(shape(f).slice(2)).toEqual([
      ['tool-call', 'c1'],
      ['tool-result', 'c1'],
      ['tool-call', 'c2'],
      ['tool-result', 'c2'],
    ]);
    expect(result(f, 'c1')).toMatchObject({ content: 'Tool call interrupted.', status: { errorType: 'agent-error' } });
  });

  it('a tool loop (from a call with thinking blocks through the calls and results after it) goes whole when one of its calls does; another loop, or calls after a message, stay', async () => {
    const f = await one('loop.json', [
      ...task(),
      thinking(action('c1', 'terminal', terminal('ls'), 'r1')),
      observation('c1', 'terminal', shellResult('ls', 'calc.py', 0)),
      message('agent', 'Listed.', { llm_response_id: 'r2' }),
      // A loop answered in full, then a loop whose second response (no thinking of its own) is never answered.
      thinking(action('c2', 'terminal', terminal('cat calc.py'), 'r3')),
      observation('c2', 'terminal', shellResult('cat calc.py', 'x = 1', 0)),
      thinking(action('c3', 'terminal', terminal('pytest'), 'r4')),
      observation('c3', 'terminal', shellResult('pytest', '1 failed', 1)),
      action('c4', 'terminal', terminal('pytest -x'), 'r5'),
    ]);
    expect(shape(f).slice(2)).toEqual([
      ['tool-call', 'c1'],
      ['tool-result', 'c1'],
      ['reasoning', 'Listed.'],
      ['tool-call', 'c2'],
      ['tool-result', 'c2'],
    ]);
    // Without thinking blocks there is no loop: only the unanswered call goes.
    const plain = await one('noloop.json', [
      ...task(),
      action('c3', 'terminal', terminal('pytest'), 'r4'),
      observation('c3', 'terminal', shellResult('pytest', '1 failed', 1)),
      action('c4', 'terminal', terminal('pytest -x'), 'r5'),
    ]);
    expect(shape(plain).slice(2)).toEqual([
      ['tool-call', 'c3'],
      ['tool-result', 'c3'],
    ]);
    // Any recorded event ends a loop, one the model is never sent too.
    const split = await one('split.json', [
      ...task(),
      thinking(action('c3', 'terminal', terminal('pytest'), 'r4')),
      observation('c3', 'terminal', shellResult('pytest', '1 failed', 1)),
      evt('ConversationStateUpdateEvent', 'environment', { key: 'execution_status', value: 'running' }),
      action('c4', 'terminal', terminal('pytest -x'), 'r5'),
    ]);
    expect(shape(split).slice(2)).toEqual([
      ['tool-call', 'c3'],
      ['tool-result', 'c3'],
    ]);
  });

  it('the properties hold for the view before a condensation and after it, each as it stood where its session ended', async () => {
    const batch = [
      action('c1', 'terminal', terminal('ls'), 'r1', 'Two looks at once.'),
      action('c2', 'terminal', terminal('pwd'), 'r1'),
      observation('c1', 'terminal', shellResult('ls', 'calc.py', 0)),
      observation('c2', 'terminal', shellResult('pwd', '/w', 0)),
    ];
    const pending = action('c3', 'terminal', terminal('make'), 'r2');
    const fs = await load('condensed.json', [
      ...task(),
      ...batch,
      pending,
      // Forgets one call of the batch and its result: its other call and result no longer go out either.
      evt('Condensation', 'environment', {
        forgotten_event_ids: [batch[0]!.id, batch[2]!.id],
        summary: 'Listed /w.',
        summary_offset: 2,
        llm_response_id: 'rc',
      }),
      // The call the first session could not send is answered now.
      observation('c3', 'terminal', shellResult('make', 'built', 0)),
      message('agent', 'Built.', { llm_response_id: 'r3' }),
    ]);
    expect(fs.map(shape)).toEqual([
      [
        ['instruction', 'You are OpenHands agent.'],
        ['instruction', 'Fix calc.py'],
        ['reasoning', 'Two looks at once.'],
        ['tool-call', 'c1'],
        ['tool-call', 'c2'],
        ['tool-result', 'c1'],
        ['tool-result', 'c2'],
      ],
      [
        ['instruction', 'You are OpenHands agent.'],
        ['instruction', 'Fix calc.py'],
        ['instruction', 'Listed /w.'],
        ['tool-call', 'c3'],
        ['tool-result', 'c3'],
        ['reasoning', 'Built.'],
      ],
    ]);
  });

  it('a condensation ends the context: the next session starts from the events it kept and its summary at its offset', async () => {
    const first = task();
    const look = [
      action('c1', 'terminal', terminal('cat calc.py'), 'r1'),
      observation('c1', 'terminal', shellResult('cat calc.py', 'x = 1', 0)),
    ];
    const tail = [
      action('c2', 'terminal', terminal('pytest'), 'r2'),
      observation('c2', 'terminal', shellResult('pytest', '1 passed', 0)),
    ];
    const condensation = (extra: Record<string, unknown>) =>
      evt('Condensation', 'environment', {
        forgotten_event_ids: look.map((e) => e.id),
        llm_response_id: 'rc',
        ...extra,
      });
    const after = [message('agent', 'Fixed.', { llm_response_id: 'r3' })];
    const fs = await load('long.json', [
      ...first,
      ...look,
      ...tail,
      condensation({ summary: 'Read calc.py: x = 1.', summary_offset: 2 }),
      ...after,
    ]);
    expect(fs.map((f) => f.id)).toEqual(['openhands.long', 'openhands.long.after-condensation-1']);
    expect(fs[0]!.items).toHaveLength(6);
    expect(fs[1]!.items.map((i) => [i.origin, i.kind, i.tool?.callId ?? i.content])).toEqual([
      ['system', 'instruction', 'You are OpenHands agent.'],
      ['user', 'instruction', 'Fix calc.py'],
      ['system', 'instruction', 'Read calc.py: x = 1.'],
      ['model', 'tool-call', 'c2'],
      ['environment', 'tool-result', 'c2'],
      ['model', 'reasoning', 'Fixed.'],
    ]);
    expect(fs[1]!.prunePoints.map((p) => [p.id, p.subgoal])).toEqual([['end', 'Fix calc.py']]);
    // Without an offset the SDK inserts no summary: the forgotten events are simply gone.
    const bare = await load('bare.json', [...first, ...look, ...tail, condensation({ summary: 'S' }), ...after]);
    expect(bare[1]!.items.map((i) => i.content)).not.toContain('S');
    expect(bare[1]!.items).toHaveLength(5);
    // Without the condensation the same events are one session; a condensation before anything ends nothing.
    expect((await load('whole.json', [...first, ...look, ...tail, ...after])).map((f) => f.items.length)).toEqual([7]);
    expect((await load('early.json', [condensation({}), ...first])).map((f) => f.id)).toEqual(['openhands.early']);
  });

  it('refuses an event missing a field it needs, naming the file and the event', async () => {
    const broken = action('c1', 'terminal', terminal('ls'), 'r1') as Record<string, unknown>;
    delete broken['tool_call_id'];
    await expect(load('bad.json', [...task(), broken])).rejects.toThrow(
      /bad\.json.*\$\[2\]\.tool_call_id.*expected a string/,
    );
    await expect(load('bad2.json', { events: [system(), evt('MessageEvent', 'user', {})] })).rejects.toThrow(
      /bad2\.json.*\$\.events\[1\]\.llm_message.*expected an object/,
    );
  });
});

describe('Claude Code 2.x', () => {
  const base = { sessionId: 's1', version: '2.0.76', cwd: '/r', userType: 'external' };
  const asst = (uuid: string, id: string, block: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    ...extra,
    type: 'assistant',
    uuid,
    timestamp: '2026-01-02T10:00:00Z',
    message: { id, role: 'assistant', content: [block] },
  });
  const userRec = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    ...extra,
    type: 'user',
    uuid,
    timestamp: '2026-01-02T10:00:01Z',
    message: { role: 'user', content },
  });
  const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
  const res = (id: string, content: string, isError = false) => [
    { type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) },
  ];

  it('merges block records of one message id into one turn; another message id is another turn', async () => {
    const f = await one(
      's.jsonl',
      [
        userRec('u1', 'Read both files'),
        asst('a1', 'msg_1', { type: 'thinking', thinking: 'hmm' }),
        asst('a2', 'msg_1', { type: 'text', text: 'Reading.' }),
        asst('a3', 'msg_1', use('t1', 'Read', { file_path: '/r/a.py' })),
        asst('a4', 'msg_1', use('t2', 'Read', { file_path: '/r/b.py', offset: 10, limit: 5 })),
        userRec('u2', res('t1', '1→a'), {
          toolUseResult: {
            type: 'text',
            file: { filePath: '/r/a.py', content: 'a', numLines: 1, startLine: 1, totalLines: 1 },
          },
        }),
        userRec('u3', res('t2', '10→x'), {
          toolUseResult: {
            type: 'text',
            file: { filePath: '/r/b.py', content: 'x', numLines: 5, startLine: 10, totalLines: 40 },
          },
        }),
        asst('a5', 'msg_2', use('t3', 'Edit', { file_path: '/r/a.py', old_string: 'q', new_string: 'r' })),
        userRec(
          'u4',
          res('t3', '<tool_use_error>String to replace not found in file.\nString: q</tool_use_error>', true),
        ),
        asst('a6', 'msg_3', use('t4', 'Grep', { pattern: 'TODO' })),
        userRec('u5', res('t4', 'No files found')),
      ],
      true,
    );
    const turnOf = (id: string) => call(f, id).turn;
    expect(turnOf('t1')).toBe(turnOf('t2'));
    expect(f.items.find((i) => i.content === 'Reading.')!.turn).toBe(turnOf('t1'));
    expect(turnOf('t3')).toBe(turnOf('t1') + 1);
    expect(turnOf('t4')).toBe(turnOf('t3') + 1);
    expect(result(f, 't1').source).toEqual({ identity: '/r/a.py', version: 'UNKNOWN', mutable: 'UNKNOWN' });
    expect(result(f, 't2').source).toMatchObject({ selector: { kind: 'lines', from: 10, to: 14 } });
    expect(result(f, 't3').status).toMatchObject({ state: 'error', message: 'String to replace not found in file.' });
    expect(call(f, 't3').effects).toEqual([{ source: '/r/a.py', outcome: 'failed' }]);
    expect(result(f, 't4')).toMatchObject({ status: { state: 'ok' }, flags: { negativeResult: true } });
  });

  it('a result holding an image keeps it as a block carried by its hash; a text-only result has no blocks', async () => {
    const f = await one(
      'img.jsonl',
      [
        userRec('u1', 'Look at the screenshot'),
        asst('a1', 'msg_1', use('t1', 'Read', { file_path: '/r/shot.png' })),
        userRec('u2', [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'text', text: 'Image read' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ]),
        asst('a2', 'msg_2', use('t2', 'Read', { file_path: '/r/a.py' })),
        userRec('u3', res('t2', '1→a')),
      ],
      true,
    );
    expect(result(f, 't1').content).toBe('Image read');
    expect(result(f, 't1').blocks).toEqual([
      { type: 'text', text: 'Image read' },
      { type: 'image', mediaType: 'image/png', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(result(f, 't2')).not.toHaveProperty('blocks');
  });

  it('a Read the tool cut at its line limit is a truncated line view', async () => {
    const f = await one(
      'big.jsonl',
      [
        userRec('u1', 'Read it'),
        asst('a1', 'msg_1', use('t1', 'Read', { file_path: '/r/big.py' })),
        userRec('u2', res('t1', '...'), {
          toolUseResult: {
            type: 'text',
            file: { filePath: '/r/big.py', content: '...', numLines: 2000, startLine: 1, totalLines: 3500 },
          },
        }),
      ],
      true,
    );
    expect(result(f, 't1').source!.selector).toEqual({ kind: 'lines', from: 1, to: 2000, truncated: true });
  });

  it("the runtime's interrupt markers are no user instruction, no task and no subgoal; a user's words that quote one are", async () => {
    const f = await one(
      'int.jsonl',
      [
        userRec('u1', 'Rename the flag'),
        asst('a1', 'msg_1', use('t1', 'Bash', { command: 'grep -rn old_flag src' })),
        userRec('u2', [
          ...res('t1', "The user doesn't want to proceed with this tool use.", true),
          { type: 'text', text: '[Request interrupted by user for tool use]' },
        ]),
        userRec('u3', 'Use new_flag instead'),
        asst('a2', 'msg_2', { type: 'text', text: 'Done.' }),
        userRec('u4', [{ type: 'text', text: '[Request interrupted by user]' }]),
      ],
      true,
    );
    const markers = f.items.filter((i) => i.content.startsWith('[Request interrupted'));
    expect(markers.map((i) => [i.origin, i.kind])).toEqual([
      ['system', 'instruction'],
      ['system', 'instruction'],
    ]);
    expect(f.items.filter((i) => i.origin === 'user').map((i) => i.content)).toEqual([
      'Rename the flag',
      'Use new_flag instead',
    ]);
    // Two tasks, from the person's two messages; the last prune point's subgoal is what they last asked.
    expect(f.prunePoints.at(-1)!.subgoal).toBe('Use new_flag instead');
    expect(f.prunePoints.some((p) => p.subgoal.includes('interrupted'))).toBe(false);

    const quoted = await one('q.jsonl', [userRec('u1', 'Why did I see [Request interrupted by user] twice?')], true);
    expect(quoted.items.map((i) => [i.origin, i.kind])).toEqual([['user', 'instruction']]);
  });

  it('sidechain records in a main file become their own session; a sidechain-only file is one session', async () => {
    const fs = await load(
      'main.jsonl',
      [
        userRec('u1', 'Find the config'),
        asst('a1', 'msg_1', use('t1', 'Task', { prompt: 'search' })),
        userRec('s1', 'search', { isSidechain: true, agentId: 'ab12' }),
        asst('s2', 'msg_9', { type: 'text', text: 'Found it in conf.yaml' }, { isSidechain: true, agentId: 'ab12' }),
        userRec('u2', res('t1', 'conf.yaml')),
      ],
      true,
    );
    expect(fs.map((f) => f.id)).toEqual(['claude-code.main', 'claude-code.main.agent-ab12']);
    expect(fs[0]!.items.some((i) => i.content.includes('Found it'))).toBe(false);
    expect(fs[1]!.items.map((i) => [i.origin, i.content])).toEqual([
      ['user', 'search'],
      ['model', 'Found it in conf.yaml'],
    ]);
    const only = await load(
      'agent-ab12.jsonl',
      [
        userRec('s1', 'search', { isSidechain: true, agentId: 'ab12' }),
        asst('s2', 'msg_9', { type: 'text', text: 'Found' }, { isSidechain: true, agentId: 'ab12' }),
      ],
      true,
    );
    expect(only.map((f) => [f.id, f.items.length])).toEqual([['claude-code.agent-ab12', 2]]);
  });

  const boundary = { ...base, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' };
  const queue = (operation: string, content?: string) => ({
    type: 'queue-operation',
    operation,
    sessionId: 's1',
    timestamp: '2026-01-02T10:00:02Z',
    ...(content === undefined ? {} : { content }),
  });
  const queuedAttachment = (prompt: string, extra: Record<string, unknown> = {}) => ({
    ...base,
    type: 'attachment',
    timestamp: '2026-01-02T10:00:03Z',
    attachment: { type: 'queued_command', commandMode: 'prompt', origin: { kind: 'human' }, prompt, ...extra },
  });

  it('a compaction ends the context: what follows is another session that starts from the summary and carries the task on', async () => {
    const before = [
      userRec('u1', 'Fix the flaky test'),
      asst('a1', 'msg_1', use('t1', 'Read', { file_path: '/r/t.py' })),
      userRec('u2', res('t1', 'def test(): ...')),
    ];
    const after = [
      userRec('u3', 'This session is being continued from a previous conversation. Summary: reading t.py', {
        isCompactSummary: true,
      }),
      asst('a2', 'msg_2', { type: 'text', text: 'Continuing with the fix.' }),
    ];
    const fs = await load('long.jsonl', [...before, boundary, ...after], true);
    expect(fs.map((f) => f.id)).toEqual(['claude-code.long', 'claude-code.long.after-compaction-1']);
    expect(fs[0]!.items.map((i) => i.content)).toEqual([
      'Fix the flaky test',
      JSON.stringify({ name: 'Read', input: { file_path: '/r/t.py' } }),
      'def test(): ...',
    ]);
    // After it the model has the summary (the runtime's) and what came next, not the read it summarised.
    expect(fs[1]!.items.map((i) => [i.origin, i.kind])).toEqual([
      ['system', 'instruction'],
      ['model', 'reasoning'],
    ]);
    expect(fs[1]!.prunePoints.map((p) => [p.id, p.subgoal])).toEqual([['end', 'Fix the flaky test']]);
    // Without the boundary record the same records are one session, the summary an instruction of the runtime.
    const whole = await load('whole.jsonl', [...before, ...after], true);
    expect(whole.map((f) => [f.id, f.items.length])).toEqual([['claude-code.whole', 5]]);
    // A boundary before anything was said ends nothing.
    expect((await load('early.jsonl', [boundary, ...before], true)).map((f) => f.id)).toEqual(['claude-code.early']);
  });

  it("a prompt typed while the model worked is the person's instruction where the model got it; commands and notices are not", async () => {
    const f = await one(
      'queued.jsonl',
      [
        userRec('u1', 'Tidy the README'),
        asst('a1', 'msg_1', use('t1', 'Read', { file_path: '/r/README.md' })),
        // 2.1.x: typed mid-turn, then removed from the queue as the running turn absorbed it. A background task's
        // notice queued before it holds no place in the queue (it arrives as a record of its own, below).
        queue('enqueue', '<task-notification>\n<task-id>b0</task-id>\n</task-notification>'),
        queue('enqueue', 'also fix the typo in the title'),
        queue('remove'),
        userRec('u2', res('t1', '# Teh project')),
        // A slash command goes to the runtime; a dequeued prompt arrives as a user record of its own.
        queue('enqueue', '/mcp'),
        queue('remove'),
        queue('enqueue', 'then run the linter'),
        queue('dequeue'),
        userRec('u3', 'then run the linter'),
        asst('a2', 'msg_2', use('t2', 'Bash', { command: 'npm run lint' })),
        // Newer versions: the queued prompt as an attachment (written once though the queue also records it).
        queue('enqueue', 'and commit'),
        queuedAttachment('and commit'),
        queue('remove'),
        queuedAttachment('<task-notification><task-id>b1</task-id><status>completed</status></task-notification>', {
          commandMode: 'task-notification',
        }),
        userRec('u4', res('t2', 'ok')),
        userRec('u5', '<task-notification>\n<task-id>b2</task-id>\n<status>completed</status>\n</task-notification>'),
      ],
      true,
    );
    const said = f.items.filter((i) => i.kind === 'instruction').map((i) => [i.origin, i.content.slice(0, 30)]);
    expect(said).toEqual([
      ['user', 'Tidy the README'],
      ['user', 'also fix the typo in the title'],
      ['user', 'then run the linter'],
      ['user', 'and commit'],
      ['system', '<task-notification><task-id>b1'],
      ['system', '<task-notification>\n<task-id>b'],
    ]);
    // A prompt of the person's after the model worked is a task (two prompts with no model turn between are one);
    // the runtime's notices are not.
    expect(f.prunePoints.map((p) => p.id)).toEqual(['task-1', 'task-2', 'end']);
    expect(f.prunePoints.at(-1)!.subgoal).toBe('and commit');
  });

  it('attachments are what the runtime sent beside the conversation: a mentioned file is its read, text is its instruction', async () => {
    const attachment = (a: Record<string, unknown>) => ({
      ...base,
      type: 'attachment',
      timestamp: '2026-01-02T10:00:03Z',
      attachment: a,
    });
    const f = await one(
      'att.jsonl',
      [
        userRec('u1', 'Tidy config/dev.exs'),
        attachment({
          type: 'nested_memory',
          path: '/r/lib/CLAUDE.md',
          content: { path: '/r/lib/CLAUDE.md', type: 'Project', content: 'Never run mix ecto.reset in this repo.' },
        }),
        attachment({
          type: 'file',
          filename: '/r/config/dev.exs',
          content: {
            type: 'text',
            file: {
              filePath: '/r/config/dev.exs',
              content: 'import Config\nconfig :app, port: 4000',
              numLines: 2,
              startLine: 1,
              totalLines: 90,
            },
          },
        }),
        attachment({
          type: 'edited_text_file',
          filename: '/r/mix.exs',
          snippet: '     1\tdefmodule App.MixProject do',
        }),
        // Nothing the model reads: no text recorded.
        attachment({ type: 'budget_usd', used: 0.42, total: 5 }),
        asst('a1', 'msg_1', { type: 'text', text: 'On it.' }),
      ],
      true,
    );
    expect(f.items.map((i) => [i.origin, i.kind])).toEqual([
      ['user', 'instruction'],
      ['system', 'instruction'],
      ['system', 'tool-call'],
      ['environment', 'tool-result'],
      ['system', 'instruction'],
      ['model', 'reasoning'],
    ]);
    expect(f.items[1]!.content).toBe('Contents of /r/lib/CLAUDE.md:\n\nNever run mix ecto.reset in this repo.');
    expect(f.items[3]).toMatchObject({
      content: 'import Config\nconfig :app, port: 4000',
      source: { identity: '/r/config/dev.exs', selector: { kind: 'lines', from: 1, to: 2, truncated: true } },
    });
    expect(f.items[4]!.content).toBe('     1\tdefmodule App.MixProject do');
  });

  it("a compaction sub-agent's prompt is the runtime's; an image the person pasted is kept as a block", async () => {
    const compactor = await one(
      'agent-acompact-1a2b.jsonl',
      [
        userRec('c1', 'Your task is to create a detailed summary of the conversation so far', {
          isSidechain: true,
          agentId: 'acompact-1a2b',
        }),
        asst(
          'c2',
          'msg_9',
          { type: 'text', text: '<summary>…</summary>' },
          { isSidechain: true, agentId: 'acompact-1a2b' },
        ),
      ],
      true,
    );
    expect(compactor.items.map((i) => [i.origin, i.kind])).toEqual([
      ['system', 'instruction'],
      ['model', 'reasoning'],
    ]);
    const png = { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' };
    const pasted = await one(
      'pasted.jsonl',
      [
        userRec('u1', [
          { type: 'text', text: 'What is wrong here?' },
          { type: 'image', source: png },
        ]),
      ],
      true,
    );
    expect(pasted.items.map((i) => [i.origin, i.content, i.blocks?.map((b) => b.type)])).toEqual([
      ['user', 'What is wrong here?', undefined],
      ['user', '', ['image']],
    ]);
  });

  describe('the conversation is a tree: the branch it ended on is imported, a branch it abandoned is not', () => {
    // Each record names its parent; `linked` gives each the record before it, as Claude Code's writer does along one
    // branch, and `under` hangs a record under another, as a /rewind or an edited prompt hangs its new prompt.
    type Rec = Record<string, unknown>;
    const linked = (parent: string | null, ...recs: Rec[]): Rec[] =>
      recs.map((r, i) => ({ ...r, parentUuid: i === 0 ? parent : recs[i - 1]!['uuid'] }));
    const under = (parent: string | null, r: Rec): Rec => ({ ...r, parentUuid: parent });
    const importAll = async (name: string, records: Rec[]) => {
      const path = join(tempDir(), name);
      writeFileSync(path, records.map((l) => JSON.stringify(l)).join('\n') + '\n');
      return importFile(path, name, { redact: true, tokens: tokenCounter() });
    };
    // The same records without their parent links: read in file order, as the importer read every file before.
    const unlinked = (records: Rec[]) => records.map(({ parentUuid: _p, logicalParentUuid: _l, ...r }) => r);
    const text = (t: string) => ({ type: 'text', text: t });
    const said = (f: Fixture) => f.items.map((i) => i.content);

    const start = linked(
      null,
      userRec('u1', 'Add a --dry-run flag to deploy.sh'),
      asst('a1', 'msg_1', use('t1', 'Read', { file_path: '/r/deploy.sh' })),
      userRec('u2', res('t1', '#!/bin/sh\nrsync -a build/ host:/srv/app')),
      asst('a2', 'msg_2', text('I will add the flag.')),
    );

    it('a /rewind leaves out the branch it went back from; the task and its prune points are those of the branch kept', async () => {
      const left = linked(
        'a2',
        userRec('u3', 'Also delete the old backups in /srv/backup'),
        asst('a3', 'msg_3', use('t2', 'Bash', { command: 'rm -rf /srv/backup/old' })),
        userRec('u4', res('t2', '')),
        asst('a4', 'msg_4', text('Deleted the old backups.')),
      );
      // Esc Esc to before u3: the next prompt hangs under a2, where the context was when u3 was sent.
      const kept = linked(
        'a2',
        userRec('u5', 'Now write a test for the flag'),
        asst('a5', 'msg_5', use('t3', 'Write', { file_path: '/r/test_deploy.sh', content: 'sh deploy.sh --dry-run' })),
        userRec('u6', res('t3', 'File created successfully at: /r/test_deploy.sh')),
      );
      const [t, ...rest] = await importAll('rewind.jsonl', [...start, ...left, ...kept]);
      expect(rest).toEqual([]);
      const f = t!.fixture;
      expect(said(f)).toEqual([
        'Add a --dry-run flag to deploy.sh',
        JSON.stringify({ name: 'Read', input: { file_path: '/r/deploy.sh' } }),
        '#!/bin/sh\nrsync -a build/ host:/srv/app',
        'I will add the flag.',
        'Now write a test for the flag',
        JSON.stringify({
          name: 'Write',
          input: { file_path: '/r/test_deploy.sh', content: 'sh deploy.sh --dry-run' },
        }),
        'File created successfully at: /r/test_deploy.sh',
      ]);
      expect(f.tools.map((x) => x.name)).not.toContain('bash');
      expect(f.prunePoints.map((p) => [p.id, p.subgoal])).toEqual([
        ['task-1', 'Add a --dry-run flag to deploy.sh'],
        ['end', 'Now write a test for the flag'],
      ]);
      expect(t!.abandoned).toBe(4);
      // The import report says so.
      const dir = tempDir();
      writeFileSync(join(dir, 'rewind.jsonl'), [...start, ...left, ...kept].map((l) => JSON.stringify(l)).join('\n'));
      const r = await cli(['import', join(dir, 'rewind.jsonl'), '--out', join(dir, 'out')]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        'left out as on a branch the conversation abandoned (/rewind, an edited prompt), records: claude-code.rewind 4',
      );
      const json = await cli(['import', join(dir, 'rewind.jsonl'), '--out', join(dir, 'out2'), '--json']);
      expect(JSON.parse(json.stdout)[0]).toMatchObject({ fixture: 'claude-code.rewind', abandonedRecords: 4 });
    });

    it('an edited prompt replaces the one it edits and what followed it, the first prompt as well as a later one', async () => {
      const first = linked(
        'a2',
        userRec('u3', 'Rename deploy.sh to release.sh'),
        asst('a3', 'msg_3', text('Renaming.')),
      );
      const edited = linked(
        'a2',
        userRec('u4', 'Rename deploy.sh to ship.sh'),
        asst('a4', 'msg_4', text('Renaming to ship.sh.')),
      );
      const [t] = await importAll('edit.jsonl', [...start, ...first, ...edited]);
      expect(said(t!.fixture).slice(4)).toEqual(['Rename deploy.sh to ship.sh', 'Renaming to ship.sh.']);
      expect(t!.abandoned).toBe(2);
      // The first prompt edited: the new one is a second root, and nothing of the first root's branch was kept.
      const again = linked(
        null,
        userRec('v1', 'Add a --dry-run flag to deploy.sh and to build.sh'),
        asst('b1', 'msg_9', text('Both then.')),
      );
      const [root] = await importAll('root.jsonl', [...start, ...again]);
      expect(said(root!.fixture)).toEqual(['Add a --dry-run flag to deploy.sh and to build.sh', 'Both then.']);
      expect(root!.abandoned).toBe(4);
    });

    it('parallel tool use forks the links without leaving anything: every call and every result is kept', async () => {
      // Claude Code 2.1: one record per block of a response (one message id), each result under the block that asked
      // for it, the chain going on from the result written last; the second block here hangs under a hook progress
      // record, and the next response's first block under a progress record too (2.1.x before progress left the chain).
      const parallel = [
        ...linked(null, userRec('u1', 'Why does the server not start?')),
        under('u1', asst('a1', 'msg_1', text('Checking the config and the log.'))),
        under('a1', asst('a2', 'msg_1', use('t1', 'Read', { file_path: '/r/config.exs' }))),
        {
          type: 'progress',
          uuid: 'p1',
          parentUuid: 'a2',
          data: { type: 'hook_progress' },
          timestamp: '2026-01-02T10:00:00Z',
        },
        under('p1', asst('a3', 'msg_1', use('t2', 'Bash', { command: 'tail -5 log/dev.log' }))),
        under('a3', userRec('u2', res('t2', 'eaddrinuse'))),
        under('a2', userRec('u3', res('t1', 'config :app, port: 4000'))),
        under('u3', asst('a4', 'msg_2', use('t3', 'Bash', { command: 'lsof -i :4000' }))),
        {
          type: 'progress',
          uuid: 'p2',
          parentUuid: 'a4',
          data: { type: 'hook_progress' },
          timestamp: '2026-01-02T10:00:00Z',
        },
        under('a4', userRec('u4', res('t3', 'beam.smp 4242'))),
        under('p2', asst('a5', 'msg_3', text('Port 4000 is taken by an old server (pid 4242).'))),
      ];
      const [t] = await importAll('parallel.jsonl', parallel);
      const f = t!.fixture;
      for (const id of ['t1', 't2', 't3']) {
        expect(call(f, id)).toBeDefined();
        expect(result(f, id)).toBeDefined();
      }
      expect(call(f, 't1').turn).toBe(call(f, 't2').turn);
      expect(t!.abandoned).toBeUndefined();
      // Exactly what the same records read in file order give.
      const [plain] = await importAll('parallel.jsonl', unlinked(parallel));
      expect(f.items).toEqual(plain!.fixture.items);
      expect(f.prunePoints).toEqual(plain!.fixture.prunePoints);
    });

    it('a linear conversation, with a compaction, a sub-agent, a queued prompt and an attachment, imports as in file order', async () => {
      const records = [
        ...start,
        ...linked(
          'a2',
          userRec('u3', 'And document it'),
          asst('a3', 'msg_3', use('t2', 'Task', { prompt: 'find the docs' })),
        ),
        under('a3', userRec('s1', 'find the docs', { isSidechain: true, agentId: 'ab12' })),
        under('s1', asst('s2', 'msg_8', text('docs/deploy.md'), { isSidechain: true, agentId: 'ab12' })),
        queue('enqueue', 'keep it short'),
        queue('remove'),
        under('a3', userRec('u4', res('t2', 'docs/deploy.md'))),
        under('u4', { ...queuedAttachment('keep it short'), uuid: 'q1' }),
        under('q1', asst('a4', 'msg_4', text('Documented.'))),
        { ...boundary, uuid: 'b1', parentUuid: null, logicalParentUuid: 'a4' },
        ...linked(
          'b1',
          userRec('u5', 'This session is being continued from a previous conversation. Summary: flag added', {
            isCompactSummary: true,
          }),
          asst('a5', 'msg_5', text('Continuing.')),
        ),
      ];
      const tree = await importAll('linear.jsonl', records);
      const plain = await importAll('linear.jsonl', unlinked(records));
      expect(tree.map((t) => t.fixture.id)).toEqual([
        'claude-code.linear',
        'claude-code.linear.after-compaction-1',
        'claude-code.linear.agent-ab12',
      ]);
      expect(tree.map((t) => [t.fixture.items, t.fixture.prunePoints, t.abandoned])).toEqual(
        plain.map((t) => [t.fixture.items, t.fixture.prunePoints, t.abandoned]),
      );
      expect(said(tree[0]!.fixture)).toContain('keep it short');
    });

    it('a rewind before a compaction is left out of the context before it; the context after it and sub-agents are as before', async () => {
      const left = linked('a2', userRec('u3', 'Deploy it to production now'), asst('a3', 'msg_3', text('Deploying.')));
      const kept = linked(
        'a2',
        userRec('u4', 'Only to staging'),
        asst('a4', 'msg_4', use('t2', 'Task', { prompt: 'check staging' })),
      );
      const records = [
        ...start,
        ...left,
        // A sub-agent the abandoned branch started is still its own session: its model had that context.
        under('a3', userRec('s1', 'check production', { isSidechain: true, agentId: 'ab12' })),
        under('s1', asst('s2', 'msg_8', text('production is up'), { isSidechain: true, agentId: 'ab12' })),
        ...kept,
        under('a4', userRec('u5', res('t2', 'staging is up'))),
        { ...boundary, uuid: 'b1', parentUuid: null, logicalParentUuid: 'u5' },
        ...linked(
          'b1',
          userRec('u6', 'This session is being continued from a previous conversation. Summary: staging', {
            isCompactSummary: true,
          }),
          asst('a5', 'msg_5', text('Staging is up.')),
        ),
      ];
      const fs = await importAll('compacted.jsonl', records);
      expect(said(fs[0]!.fixture).slice(4)).toEqual([
        'Only to staging',
        JSON.stringify({ name: 'Task', input: { prompt: 'check staging' } }),
        'staging is up',
      ]);
      expect(fs.map((t) => [t.fixture.id, t.abandoned])).toEqual([
        ['claude-code.compacted', 2],
        ['claude-code.compacted.after-compaction-1', undefined],
        ['claude-code.compacted.agent-ab12', undefined],
      ]);
      expect(fs[0]!.fixture.prunePoints.at(-1)!.subgoal).toBe('Only to staging');
      expect(fs[1]!.fixture.items.map((i) => i.content)).toEqual([
        'This session is being continued from a previous conversation. Summary: staging',
        'Staging is up.',
      ]);
      expect(fs[1]!.fixture.prunePoints.at(-1)!.subgoal).toBe('Only to staging');
      expect(said(fs[2]!.fixture)).toEqual(['check production', 'production is up']);
    });

    it('a parent the file does not hold says nothing of what came before: every earlier record is kept', async () => {
      // A writer that lost a record (anthropics/claude-code#58554): the next one names a parent the file lacks.
      const records = [
        ...start,
        ...linked('lost', userRec('u3', 'Go on'), asst('a3', 'msg_3', text('Done.'))),
        under('u3', userRec('u4', 'Actually stop')),
      ];
      const [t] = await importAll('lost.jsonl', records);
      expect(said(t!.fixture)).toEqual([
        ...said((await importAll('lost.jsonl', unlinked(start)))[0]!.fixture),
        'Go on',
        'Actually stop',
      ]);
      expect(t!.abandoned).toBe(1);
    });

    it('the branch is the one the file ends on, though a parallel result before it has the same timestamp', async () => {
      // spotter-short.jsonl's shape: the chain goes on from the second block's result to the interrupt marker, all
      // three written in one millisecond; the first block's result is a leaf as late as the marker.
      const same = { timestamp: '2026-02-10T21:12:02.480Z' };
      const records = [
        ...linked(null, userRec('u1', 'Start the server')),
        under('u1', asst('a1', 'msg_1', use('t1', 'Bash', { command: 'ls' }))),
        under('a1', asst('a2', 'msg_1', use('t2', 'Bash', { command: 'mix phx.server' }))),
        under('a1', userRec('u2', res('t1', 'mix.exs'), same)),
        under('a2', userRec('u3', res('t2', 'interrupted', true), same)),
        under('u3', userRec('u4', [{ type: 'text', text: '[Request interrupted by user for tool use]' }], same)),
      ];
      const [t] = await importAll('tie.jsonl', records);
      expect(said(t!.fixture).at(-1)).toBe('[Request interrupted by user for tool use]');
      expect(t!.abandoned).toBeUndefined();
    });

    // The conversation the compactions below act on: the first request done, then a second one under way.
    const second = linked(
      'a2',
      userRec('u3', 'Now make --dry-run print each file'),
      asst('a3', 'msg_3', use('t2', 'Edit', { file_path: '/r/deploy.sh', old_string: '-a', new_string: '-av' })),
      userRec('u4', res('t2', 'The file /r/deploy.sh has been updated.')),
    );
    // What the model had of them, in order, as the importer shows each record.
    const whole = [
      'Add a --dry-run flag to deploy.sh',
      JSON.stringify({ name: 'Read', input: { file_path: '/r/deploy.sh' } }),
      '#!/bin/sh\nrsync -a build/ host:/srv/app',
      'I will add the flag.',
      'Now make --dry-run print each file',
      JSON.stringify({ name: 'Edit', input: { file_path: '/r/deploy.sh', old_string: '-a', new_string: '-av' } }),
      'The file /r/deploy.sh has been updated.',
    ];

    describe('a partial compaction keeps part of the conversation (compactMetadata.preservedSegment)', () => {
      const summary = (uuid: string, parent: string, gist: string) =>
        under(
          parent,
          userRec(uuid, `This session is being continued from a previous conversation. Summary: ${gist}`, {
            isCompactSummary: true,
          }),
        );
      const cut = (uuid: string, logical: string, seg?: Record<string, unknown>) => ({
        ...boundary,
        uuid,
        parentUuid: null,
        logicalParentUuid: logical,
        compactMetadata: { trigger: 'manual', preTokens: 9000, ...(seg ? { preservedSegment: seg } : {}) },
      });
      const seg = (headUuid: string, anchorUuid: string, tailUuid: string) => ({ headUuid, anchorUuid, tailUuid });

      it('"up to here": the model has the summary, then the records kept, then what followed; before it, everything', async () => {
        // Summarised u1..a2; kept u3..u4. The boundary names the last summarised record, the summary is the anchor, and
        // the next record hangs under the summary (Claude Code's writer skipped the kept records it had written).
        const records = [
          ...start,
          ...second,
          cut('b1', 'a2', seg('u3', 's1', 'u4')),
          summary('s1', 'b1', 'flag added'),
          under('s1', asst('a4', 'msg_4', text('Printing each file now.'))),
        ];
        const fs = await importAll('upto.jsonl', records);
        expect(fs.map((t) => [t.fixture.id, t.abandoned])).toEqual([
          ['claude-code.upto', undefined],
          ['claude-code.upto.after-compaction-1', undefined],
        ]);
        expect(said(fs[0]!.fixture)).toEqual(whole);
        expect(said(fs[1]!.fixture)).toEqual([
          'This session is being continued from a previous conversation. Summary: flag added',
          ...whole.slice(4),
          'Printing each file now.',
        ]);
        // What was summarised is not there again; the kept prompt is the task carried on.
        expect(said(fs[1]!.fixture)).not.toContain('Add a --dry-run flag to deploy.sh');
        expect(fs[1]!.fixture.prunePoints.at(-1)!.subgoal).toBe('Now make --dry-run print each file');
        // The session may end at the summary: the kept records are still under it.
        const ended = await importAll('ended.jsonl', records.slice(0, -1));
        expect(said(ended[1]!.fixture)).toEqual(said(fs[1]!.fixture).slice(0, -1));
        // A record written under the tail itself (the loader's race case) goes on from it just the same.
        const race = await importAll('race.jsonl', [...records.slice(0, -1), { ...records.at(-1)!, parentUuid: 'u4' }]);
        expect(said(race[1]!.fixture)).toEqual(said(fs[1]!.fixture));
      });

      it('"from here": the model has the records kept, then the summary; before it, everything', async () => {
        // Kept u1..u2, summarised a2..u4: the boundary names the last kept record and is the anchor itself.
        const records = [
          ...start,
          ...second,
          cut('b1', 'u2', seg('u1', 'b1', 'u2')),
          summary('s1', 'b1', 'flag added, printing under way'),
          under('s1', asst('a4', 'msg_4', text('Done.'))),
        ];
        const fs = await importAll('from.jsonl', records);
        expect(fs.map((t) => t.abandoned)).toEqual([undefined, undefined]);
        expect(said(fs[0]!.fixture)).toEqual(whole);
        expect(said(fs[1]!.fixture)).toEqual([
          ...whole.slice(0, 3),
          'This session is being continued from a previous conversation. Summary: flag added, printing under way',
          'Done.',
        ]);
        expect(said(fs[1]!.fixture)).not.toContain('I will add the flag.');
        expect(said(fs[1]!.fixture)).not.toContain('Now make --dry-run print each file');
      });

      it('a segment whose tail does not reach its head is not relinked, as Claude Code resumes it', async () => {
        const records = [
          ...start,
          ...second,
          cut('b1', 'a2', seg('gone', 's1', 'u4')),
          summary('s1', 'b1', 'flag added'),
          under('s1', asst('a4', 'msg_4', text('Printing each file now.'))),
        ];
        const fs = await importAll('broken.jsonl', records);
        expect(said(fs[0]!.fixture)).toEqual(whole);
        expect(said(fs[1]!.fixture)).toEqual([
          'This session is being continued from a previous conversation. Summary: flag added',
          'Printing each file now.',
        ]);
      });

      it('each compaction has its own context: a partial one keeps its records, a full one after it keeps none', async () => {
        const records = [
          ...start,
          ...second,
          cut('b1', 'a2', seg('u3', 's1', 'u4')),
          summary('s1', 'b1', 'flag added'),
          under('s1', asst('a4', 'msg_4', text('Printing each file now.'))),
          { ...boundary, uuid: 'b2', parentUuid: null, logicalParentUuid: 'a4' },
          summary('s2', 'b2', 'all done'),
          under('s2', asst('a5', 'msg_5', text('Anything else?'))),
        ];
        const fs = await importAll('twice.jsonl', records);
        expect(fs.map((t) => [t.fixture.id, t.abandoned])).toEqual([
          ['claude-code.twice', undefined],
          ['claude-code.twice.after-compaction-1', undefined],
          ['claude-code.twice.after-compaction-2', undefined],
        ]);
        expect(said(fs[1]!.fixture)).toEqual([
          'This session is being continued from a previous conversation. Summary: flag added',
          ...whole.slice(4),
          'Printing each file now.',
        ]);
        expect(said(fs[2]!.fixture)).toEqual([
          'This session is being continued from a previous conversation. Summary: all done',
          'Anything else?',
        ]);
      });

      it('a compaction with no segment, and a rewind before a partial one, are as before', async () => {
        // Without preservedSegment the kept records are not relinked: nothing of the context before it comes back.
        const full = [
          ...start,
          ...second,
          cut('b1', 'u4'),
          summary('s1', 'b1', 'flag added'),
          under('s1', asst('a4', 'msg_4', text('Printing each file now.'))),
        ];
        const fs = await importAll('full.jsonl', full);
        expect(said(fs[0]!.fixture)).toEqual(whole);
        expect(said(fs[1]!.fixture)).toHaveLength(2);
        // A branch abandoned before the compaction stays out of both contexts.
        const left = linked('a2', userRec('x1', 'Delete the backups'), asst('x2', 'msg_9', text('Deleting.')));
        const rewound = [
          ...start,
          ...left,
          ...second,
          cut('b1', 'a2', seg('u3', 's1', 'u4')),
          summary('s1', 'b1', 'flag added'),
        ];
        const [before, after] = await importAll('rewound.jsonl', rewound);
        expect(said(before!.fixture)).toEqual(whole);
        expect(before!.abandoned).toBe(2);
        expect(said(after!.fixture)).not.toContain('Delete the backups');
      });

      it('property: before a partial compaction, everything; after it, the summary and the kept records in their order, once', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 2, max: 8 }),
            fc.nat(),
            fc.boolean(),
            fc.integer({ min: 0, max: 2 }),
            async (n, at, upTo, more) => {
              const said_ = (k: number) => (k % 2 === 0 ? `prompt ${k}` : `answer ${k}`);
              const conv = linked(
                null,
                ...Array.from({ length: n }, (_, k) =>
                  k % 2 === 0 ? userRec(`r${k}`, said_(k)) : asst(`r${k}`, `msg_${k}`, text(said_(k))),
                ),
              );
              const pivot = 1 + (at % (n - 1));
              const kept = upTo ? conv.slice(pivot) : conv.slice(0, pivot);
              const segment = seg(String(kept[0]!['uuid']), upTo ? 's1' : 'b1', String(kept.at(-1)!['uuid']));
              const next = linked(
                's1',
                ...Array.from({ length: more }, (_, k) => asst(`n${k}`, `msg_n${k}`, text(`then ${k}`))),
              );
              const fs = await importAll('prop.jsonl', [
                ...conv,
                cut('b1', String(conv[pivot - 1]!['uuid']), segment),
                summary('s1', 'b1', 'so far'),
                ...next,
              ]);
              const gist = 'This session is being continued from a previous conversation. Summary: so far';
              const keptSaid = kept.map((r) => said_(Number(String(r['uuid']).slice(1))));
              expect(said(fs[0]!.fixture)).toEqual(conv.map((_, k) => said_(k)));
              expect(said(fs[1]!.fixture)).toEqual([
                ...(upTo ? [gist, ...keptSaid] : [...keptSaid, gist]),
                ...next.map((_, k) => `then ${k}`),
              ]);
              expect(fs.map((t) => t.abandoned)).toEqual([undefined, undefined]);
            },
          ),
          { numRuns: 40 },
        );
      });

      it('a preservedSegment or parent link of the wrong type is an error naming the file, record and field', async () => {
        const records = (s: unknown) => [
          ...start,
          ...second,
          { ...cut('b1', 'a2'), compactMetadata: { preservedSegment: s } },
        ];
        await expect(importAll('bad.jsonl', records('u3'))).rejects.toThrow(
          'bad.jsonl: at line 8, $.compactMetadata.preservedSegment: expected an object, found a string',
        );
        await expect(importAll('bad.jsonl', records({ ...seg('u3', 's1', 'u4'), tailUuid: 4 }))).rejects.toThrow(
          'bad.jsonl: at line 8, $.compactMetadata.preservedSegment.tailUuid: expected a string, found a number',
        );
        await expect(importAll('bad.jsonl', [...start, { ...second[0]!, parentUuid: 7 }])).rejects.toThrow(
          'bad.jsonl: at line 5, $.parentUuid: expected a string, found a number',
        );
        await expect(
          importAll('bad.jsonl', [...start, { ...cut('b1', 'a2'), logicalParentUuid: ['a2'] }]),
        ).rejects.toThrow('bad.jsonl: at line 5, $.logicalParentUuid: expected a string, found an array');
      });
    });

    describe("a sub-agent's records are walked as the main conversation's are", () => {
      const agent = (r: Rec): Rec => ({ ...r, isSidechain: true, agentId: 'ab12' });

      it('a resumed sub-agent: the conversation written again and what followed, once; the unanswered call not', async () => {
        // resumeAgent drops the tool use left unanswered, and runAgent writes the resumed conversation again from a new
        // root (the same uuids), then the new prompt.
        const first = linked(
          null,
          agent(userRec('s1', 'Find where the port is set')),
          agent(asst('s2', 'msg_8', use('t1', 'Grep', { pattern: 'port' }))),
        );
        const resumed = linked(
          null,
          agent(userRec('s1', 'Find where the port is set')),
          agent(userRec('s3', 'Look in config/ only')),
          agent(asst('s4', 'msg_9', text('config/dev.exs sets port 4000.'))),
        );
        const [t, ...rest] = await importAll('agent-ab12.jsonl', [...first, ...resumed]);
        expect(rest).toEqual([]);
        expect(said(t!.fixture)).toEqual([
          'Find where the port is set',
          'Look in config/ only',
          'config/dev.exs sets port 4000.',
        ]);
        expect(t!.abandoned).toBe(1);
        // The same sub-agent's records inside a main file: its session, walked the same way.
        const main = [...start, ...first, ...resumed];
        const fs = await importAll('main.jsonl', main);
        expect(fs.map((x) => x.fixture.id)).toEqual(['claude-code.main', 'claude-code.main.agent-ab12']);
        expect(said(fs[1]!.fixture)).toEqual(said(t!.fixture));
        expect(said(fs[0]!.fixture)).toEqual(whole.slice(0, 4));
      });

      it("a sub-agent's parallel tool use keeps every call and result, in file order", async () => {
        const records = [
          ...linked(null, agent(userRec('s1', 'Check both files'))),
          under('s1', agent(asst('s2', 'msg_8', use('t1', 'Read', { file_path: '/r/a.ex' })))),
          under('s2', agent(asst('s3', 'msg_8', use('t2', 'Read', { file_path: '/r/b.ex' })))),
          under('s2', agent(userRec('s4', res('t1', 'defmodule A')))),
          under('s3', agent(userRec('s5', res('t2', 'defmodule B')))),
          under('s5', agent(asst('s6', 'msg_9', text('Both define modules.')))),
        ];
        const [t] = await importAll('agent-ab12.jsonl', records);
        const [plain] = await importAll('agent-ab12.jsonl', unlinked(records));
        expect(t!.fixture.items).toEqual(plain!.fixture.items);
        expect(t!.abandoned).toBeUndefined();
      });

      it('sidechain records without an agentId are read in file order: several sub-agents share them', async () => {
        const anon = (r: Rec): Rec => ({ ...r, isSidechain: true });
        const records = [
          ...start,
          ...linked(null, anon(userRec('s1', 'search the docs')), anon(asst('s2', 'msg_8', text('docs/a.md')))),
          ...linked(null, anon(userRec('s3', 'search the tests')), anon(asst('s4', 'msg_9', text('test/a.exs')))),
        ];
        const fs = await importAll('anon.jsonl', records);
        expect(said(fs[1]!.fixture)).toEqual(['search the docs', 'docs/a.md', 'search the tests', 'test/a.exs']);
      });
    });
  });
});

describe('OpenCode export', () => {
  const msg = (id: string, role: string, parts: unknown[]) => ({
    info: { id, sessionID: 'ses_1', role, time: { created: 1750000000000 } },
    parts,
  });
  const tool = (callID: string, name: string, state: unknown) => ({
    id: `prt_${callID}`,
    type: 'tool',
    callID,
    tool: name,
    state,
  });
  /** A synthetic text part, and the text OpenCode writes for a file the user attached (`@path`). */
  const synthetic = (id: string, text: string) => ({ id, type: 'text', synthetic: true, text });
  const attachedCall = (path: string) =>
    `Called the Read tool with the following input: ${JSON.stringify({ filePath: path })}`;

  it('an apply_patch call changes every file its patch names, with the outcome its result shows; a read changes none', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: /r/AGENTS.md',
      '@@',
      '-old',
      '+new',
      '*** Add File: /r/docs/new.md',
      '+hello',
      '*** Update File: /r/src/a.ts',
      '*** Move to: /r/src/b.ts',
      '*** End Patch',
    ].join('\n');
    const f = await one('patch.json', {
      info: { id: 'ses_1', version: '1.2.5', title: 't', time: { created: 1, updated: 2 } },
      messages: [
        msg('m1', 'user', [{ id: 'u1', type: 'text', text: 'Update the docs' }]),
        msg('m2', 'assistant', [
          tool('p1', 'apply_patch', {
            status: 'completed',
            input: { patchText: patch },
            output: 'Success. Updated the following files:\nM AGENTS.md\nA docs/new.md\nM src/b.ts',
            metadata: {},
            time: { start: 1, end: 2 },
          }),
          tool('p2', 'apply_patch', {
            status: 'error',
            input: { patchText: '*** Begin Patch\n*** Update File: /r/missing.md\n*** End Patch' },
            error: 'apply_patch verification failed: Failed to read file to update: /r/missing.md',
            time: { start: 3, end: 4 },
          }),
          tool('p3', 'read', {
            status: 'completed',
            input: { filePath: '/r/AGENTS.md' },
            output: '<path>/r/AGENTS.md</path>\n<type>file</type>\n<content>1: new\n</content>',
            metadata: {},
            time: { start: 5, end: 6 },
          }),
        ]),
      ],
    });
    expect(call(f, 'p1').effects).toEqual(
      ['/r/AGENTS.md', '/r/docs/new.md', '/r/src/a.ts', '/r/src/b.ts'].map((source) => ({
        source,
        outcome: 'succeeded',
      })),
    );
    expect(call(f, 'p2').effects).toEqual([{ source: '/r/missing.md', outcome: 'failed' }]);
    expect(call(f, 'p3').effects ?? []).toEqual([]);
  });

  it('a session that ends reverted is what the model goes on from: messages before the boundary, or parts before a named part', async () => {
    const text = (id: string, t: string) => ({ id, type: 'text', text: t });
    const session = (revert?: Record<string, string>) => ({
      info: {
        id: 'ses_1',
        version: '1.0.0',
        title: 't',
        time: { created: 1, updated: 2 },
        ...(revert ? { revert } : {}),
      },
      messages: [
        msg('m1', 'user', [text('p1', 'Write a poem')]),
        msg('m2', 'assistant', [text('p2', 'Wrote it.')]),
        msg('m3', 'user', [text('p3', 'Add ten words')]),
        msg('m4', 'assistant', [text('p4', 'Adding.'), text('p5', 'Added ten words.')]),
      ],
    });
    const contents = async (revert?: Record<string, string>) =>
      (await one('rev.json', session(revert))).items.map((i) => i.content);
    expect(await contents()).toEqual(['Write a poem', 'Wrote it.', 'Add ten words', 'Adding.', 'Added ten words.']);
    expect(await contents({ messageID: 'm3' })).toEqual(['Write a poem', 'Wrote it.']);
    expect(await contents({ messageID: 'm4', partID: 'p5' })).toEqual([
      'Write a poem',
      'Wrote it.',
      'Add ten words',
      'Adding.',
    ]);
    // A boundary that names no message of the session undoes nothing.
    expect(await contents({ messageID: 'm9' })).toHaveLength(5);
  });

  it('a read with offset/limit is a line view, truncated when the tool says the file has more; grep exiting 1 found nothing', async () => {
    const f = await one('ses.json', {
      info: { id: 'ses_1', version: '1.0.0', title: 't', time: { created: 1, updated: 2 } },
      messages: [
        msg('m1', 'user', [{ type: 'text', text: 'Look at a.ts' }]),
        msg('m2', 'assistant', [
          tool('r1', 'read', {
            status: 'completed',
            input: { filePath: '/r/a.ts', offset: 20, limit: 3 },
            output:
              "<file>\n00021| a\n00022| b\n00023| c\n\n(File has more lines. Use 'offset' parameter to read beyond line 23)\n</file>",
            metadata: {},
            time: { start: 1, end: 2 },
          }),
          tool('r2', 'read', {
            status: 'completed',
            input: { filePath: '/r/b.ts' },
            output: '<file>\n00001| x\n</file>',
            metadata: {},
            time: { start: 3, end: 4 },
          }),
          tool('g1', 'bash', {
            status: 'completed',
            input: { command: 'grep -rn TODO src' },
            output: '',
            metadata: { exit: 1 },
            time: { start: 5, end: 6 },
          }),
          tool('b1', 'bash', {
            status: 'completed',
            input: { command: 'npm test' },
            output: 'Error: Cannot find module x',
            metadata: { exit: 1 },
            time: { start: 7, end: 8 },
          }),
        ]),
      ],
    });
    expect(f.imported!.formatVersion).toBe('opencode 1.0.0');
    expect(result(f, 'r1').source!.selector).toEqual({ kind: 'lines', from: 21, to: 23, truncated: true });
    expect(result(f, 'r2').source).not.toHaveProperty('selector');
    expect(result(f, 'g1')).toMatchObject({ status: { state: 'ok' }, flags: { negativeResult: true } });
    expect(result(f, 'b1').status).toMatchObject({ state: 'error', message: 'Error: Cannot find module x' });
  });

  it('a 1.x read counts its offset from 1 and says which lines it showed: the same window as a 0.x read of the same lines', async () => {
    const f = await one('ses.json', {
      info: { id: 'ses_1', version: '1.2.15', title: 't', time: { created: 1, updated: 2 } },
      messages: [
        msg('m1', 'user', [{ type: 'text', text: 'Look' }]),
        msg('m2', 'assistant', [
          tool('n1', 'read', {
            status: 'completed',
            input: { filePath: '/r/a.ts', offset: 21, limit: 3 },
            output:
              '<path>/r/a.ts</path>\n<type>file</type>\n<content>21: a\n22: b\n23: c\n\n(Showing lines 21-23 of 40. Use offset=24 to continue.)\n</content>',
            metadata: {},
            time: { start: 1, end: 2 },
          }),
          tool('n2', 'read', {
            status: 'completed',
            input: { filePath: '/r/b.ts' },
            output:
              '<path>/r/b.ts</path>\n<type>file</type>\n<content>1: x\n2: y\n\n(End of file - total 2 lines)\n</content>',
            metadata: {},
            time: { start: 3, end: 4 },
          }),
          tool('n3', 'read', {
            status: 'completed',
            input: { filePath: '/r/c.ts', offset: 38, limit: 10 },
            output: '<content>38: p\n39: q\n40: r\n\n(End of file - total 40 lines)\n</content>',
            metadata: {},
            time: { start: 5, end: 6 },
          }),
        ]),
      ],
    });
    expect(result(f, 'n1').source!.selector).toEqual({ kind: 'lines', from: 21, to: 23, truncated: true });
    expect(result(f, 'n2').source).not.toHaveProperty('selector');
    // A window that reached the end of the file is still the window asked for, not cut short.
    expect(result(f, 'n3').source!.selector).toEqual({ kind: 'lines', from: 38, to: 40 });
  });

  it('an attachment whose output a pending revert undid is no read: the call text stays, the output is gone', async () => {
    const parts = [
      { id: 'u1', type: 'text', text: 'Explain this' },
      {
        id: 'a1',
        type: 'text',
        synthetic: true,
        text: 'Called the Read tool with the following input: {"filePath":"/r/a.ts"}',
      },
      { id: 'a2', type: 'text', synthetic: true, text: '<file>\n00001| x\n</file>' },
    ];
    const session = (revert?: Record<string, string>) => ({
      info: {
        id: 'ses_1',
        version: '1.0.0',
        title: 't',
        time: { created: 1, updated: 2 },
        ...(revert ? { revert } : {}),
      },
      messages: [msg('m1', 'user', parts), msg('m2', 'assistant', [{ id: 'x1', type: 'text', text: 'Done.' }])],
    });
    const kinds = async (revert?: Record<string, string>) =>
      (await one('rev.json', session(revert))).items.map((i) => i.kind);
    expect(await kinds()).toEqual(['instruction', 'tool-call', 'tool-result', 'reasoning']);
    expect(await kinds({ messageID: 'm1', partID: 'a2' })).toEqual(['instruction', 'instruction']);
  });

  it("an attached file (@path) is the runtime's read of it; a call text with no output after it, or one typed by the user, is not", async () => {
    const f = await one('ses.json', {
      info: { id: 'ses_1', version: '1.2.15', title: 't', time: { created: 1, updated: 2 } },
      messages: [
        msg('m1', 'user', [
          { id: 'u1', type: 'text', text: 'Explain these' },
          synthetic('a1', attachedCall('/r/a.ts')),
          synthetic(
            'a2',
            '<path>/r/a.ts</path>\n<type>file</type>\n<content>1: x\n\n(End of file - total 1 lines)\n</content>',
          ),
          { id: 'a3', type: 'file', mime: 'text/plain', filename: 'a.ts', url: 'file:///r/a.ts' },
          synthetic('b1', attachedCall('/r/gone.ts')),
          synthetic('b2', 'Read tool failed to read /r/gone.ts with the following error: File not found: /r/gone.ts'),
          // A binary attachment: the call text, then the file part with its data; no output text to pair.
          synthetic('c1', attachedCall('/r/logo.png')),
          { id: 'c2', type: 'file', mime: 'image/png', filename: 'logo.png', url: 'data:image/png;base64,AA==' },
          // Not JSON after the prefix, and the same words typed by the person: neither is a read.
          synthetic('d1', 'Called the Read tool with the following input: {not json'),
          synthetic('d2', 'some text'),
          { id: 'e1', type: 'text', text: attachedCall('/r/typed.ts') },
          { id: 'e2', type: 'text', text: 'and this' },
        ]),
        msg('m2', 'assistant', [{ id: 'x1', type: 'text', text: 'Done.' }]),
      ],
    });
    const reads = f.items.filter((i) => i.kind === 'tool-call');
    expect(reads.map((i) => [i.origin, i.tool!.name, i.tool!.arguments['filePath']])).toEqual([
      ['system', 'read', '/r/a.ts'],
      ['system', 'read', '/r/gone.ts'],
    ]);
    expect(result(f, 'a1')).toMatchObject({ status: { state: 'ok' }, source: { identity: '/r/a.ts' } });
    expect(result(f, 'b1').status).toMatchObject({ state: 'error', message: 'File not found: /r/gone.ts' });
    const instructions = f.items.filter((i) => i.origin === 'system' && i.kind === 'instruction').map((i) => i.content);
    expect(instructions).toEqual([
      attachedCall('/r/logo.png'),
      'Called the Read tool with the following input: {not json',
      'some text',
    ]);
    expect(f.items.filter((i) => i.origin === 'user').map((i) => i.content)).toContain(attachedCall('/r/typed.ts'));
  });

  it('pairs each attached read with the output naming its path when 1.x writes the calls first and the outputs in another order', async () => {
    // The order OpenCode 1.2.5 wrote for four attachments (a real export): three calls, one output, a call, its
    // output, then the first two calls' outputs, one of them a failure.
    const out = (path: string, body: string) =>
      `<path>${path}</path>\n<type>file</type>\n<content>1: ${body}\n</content>`;
    const f = await one('ses.json', {
      info: { id: 'ses_1', version: '1.2.5', title: 't', time: { created: 1, updated: 2 } },
      messages: [
        msg('m1', 'user', [
          { id: 'u1', type: 'text', text: 'in @scripts/ add a helper' },
          synthetic('a1', attachedCall('/r/AGENTS.md')),
          synthetic('b1', attachedCall('/r/gone.md')),
          synthetic('c1', attachedCall('/r/scripts/helpers/')),
          synthetic('c2', '<path>/r/scripts/helpers/</path>\n<type>directory</type>\n<entries>\nrun.sh\n</entries>'),
          synthetic('d1', attachedCall('/r/scripts/')),
          synthetic('d2', '<path>/r/scripts</path>\n<type>directory</type>\n<entries>\nhelpers/\n</entries>'),
          synthetic('a2', out('/r/AGENTS.md', '# Agents')),
          synthetic('b2', 'Read tool failed to read /r/gone.md with the following error: File not found: /r/gone.md'),
        ]),
        msg('m2', 'assistant', [{ id: 'x1', type: 'text', text: 'Done.' }]),
      ],
    });
    const pairs = f.items
      .filter((i) => i.kind === 'tool-result')
      .map((i) => [i.tool!.callId, i.content.split('\n')[0], i.status!.state]);
    expect(pairs).toEqual([
      ['a1', '<path>/r/AGENTS.md</path>', 'ok'],
      ['b1', 'File not found: /r/gone.md', 'error'],
      ['c1', '<path>/r/scripts/helpers/</path>', 'ok'],
      ['d1', '<path>/r/scripts</path>', 'ok'],
    ]);
    expect(result(f, 'a1').source).toMatchObject({ identity: '/r/AGENTS.md' });
    // Nothing is left over as a runtime instruction: every call found its output.
    expect(f.items.filter((i) => i.origin === 'system' && i.kind === 'instruction')).toEqual([]);
  });

  /** A compaction (/compact) as OpenCode 1.2 writes it: the request's `compaction` part and its summary's message. */
  const compactionRequest = (id: string) => msg(id, 'user', [{ id: `prt_${id}`, type: 'compaction', auto: false }]);
  const summary = (id: string, parentID: string, extra: Record<string, unknown> = {}) => ({
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
      ...extra,
    },
    parts: [
      { id: `prt_${id}_r`, type: 'reasoning', text: 'thinking' },
      { id: `prt_${id}_t`, type: 'text', text: '## Goal\nFix the build.' },
    ],
  });
  const before = [
    msg('m1', 'user', [{ type: 'text', text: 'Fix the build' }]),
    msg('m2', 'assistant', [
      tool('r1', 'read', {
        status: 'completed',
        input: { filePath: '/r/a.ts' },
        output: 'long file',
        metadata: {},
        time: { start: 1, end: 2 },
      }),
    ]),
  ];

  it('a compaction its summary answered ends the context: what follows starts from the request and the summary (MessageV2.filterCompacted)', async () => {
    const fs = await load('ses.json', {
      info: { id: 'ses_1', version: '1.2.5', title: 't', time: { created: 1, updated: 2 } },
      messages: [
        ...before,
        compactionRequest('c1'),
        summary('s1', 'c1'),
        msg('m3', 'user', [{ type: 'text', text: 'Now run the tests' }]),
        msg('m4', 'assistant', [{ type: 'text', text: 'Done.' }]),
      ],
    });
    expect(fs.map((f) => f.id)).toEqual(['opencode.ses', 'opencode.ses.after-compaction-1']);
    const [main, after] = fs as [Fixture, Fixture];
    expect(main.items.map((i) => i.kind)).toEqual(['instruction', 'tool-call', 'tool-result']);
    expect(after.items.map((i) => [i.origin, i.kind, i.content])).toEqual([
      ['system', 'instruction', 'What did we do so far?'],
      ['system', 'instruction', '## Goal\nFix the build.'],
      ['user', 'instruction', 'Now run the tests'],
      ['model', 'reasoning', 'Done.'],
    ]);
    // The history the summary replaced is gone from the later context; the read is not counted there.
    expect(after.items.some((i) => i.kind === 'tool-result')).toBe(false);
    expect(after.imported!.formatVersion).toBe('opencode 1.2.5');
    expect(after.prunePoints.at(-1)!.budgetTokens).toBeLessThan(main.prunePoints.at(-1)!.budgetTokens + 40);
  });

  it('a compaction whose summary never finished (or failed) cuts nothing: the history stays in the one context', async () => {
    for (const extra of [{ finish: undefined }, { error: { name: 'MessageAbortedError', data: {} } }]) {
      const fs = await load('ses.json', {
        info: { id: 'ses_1', version: '1.2.5', title: 't', time: { created: 1, updated: 2 } },
        messages: [...before, compactionRequest('c1'), summary('s1', 'c1', extra)],
      });
      expect(fs.map((f) => f.id)).toEqual(['opencode.ses']);
      expect(fs[0]!.items.map((i) => i.kind)).toEqual([
        'instruction',
        'tool-call',
        'tool-result',
        'instruction',
        'instruction',
      ]);
    }
    // A session without a compaction imports as before: one fixture, the model's text its reasoning.
    const plain = await load('ses.json', {
      info: { id: 'ses_1', version: '1.2.5', title: 't', time: { created: 1, updated: 2 } },
      messages: [...before, msg('m4', 'assistant', [{ type: 'text', text: 'Done.' }])],
    });
    expect(plain.map((f) => [f.id, f.items.length, f.items.at(-1)!.kind])).toEqual([['opencode.ses', 4, 'reasoning']]);
  });

  /** OpenCode's prune (SessionCompaction.prune) as 1.2.5 writes it: a completed part marked `state.time.compacted`. */
  const at = (id: string, role: string, created: number, parts: unknown[]) => ({
    info: { id, sessionID: 'ses_1', role, time: { created } },
    parts,
  });
  const done = (callID: string, name: string, input: unknown, output: string, end: number, compacted?: number) =>
    tool(callID, name, {
      status: 'completed',
      input,
      output,
      metadata: name === 'bash' ? { exit: 1 } : {},
      time: { start: end - 1, end, ...(compacted !== undefined ? { compacted } : {}) },
    });
  const CLEARED = '[Old tool result content cleared]';
  /**
   * Two prunes, each marking its parts a few milliseconds apart after a prompt's loop ended, and one mark after the
   * last message (no request ever saw it).
   */
  const prunedSession = (marks: boolean) => ({
    info: { id: 'ses_1', version: '1.2.5', title: 't', time: { created: 1, updated: 2 } },
    messages: [
      at('m1', 'user', 1000, [{ id: 'u1', type: 'text', text: 'Fix the build' }]),
      at('m2', 'assistant', 1100, [
        done(
          'r1',
          'read',
          { filePath: '/r/a.ts' },
          '<content>1: long file\n</content>',
          1200,
          marks ? 5001 : undefined,
        ),
        done('r2', 'grep', { pattern: 'TODO' }, 'No files found', 1300, marks ? 5000 : undefined),
        done('r3', 'read', { filePath: '/r/b.ts' }, '<content>1: b\n</content>', 1400, marks ? 99000 : undefined),
      ]),
      at('m3', 'assistant', 1500, [{ id: 't3', type: 'text', text: 'Fixed.' }]),
      at('m4', 'user', 6000, [{ id: 'u4', type: 'text', text: 'Now run the tests' }]),
      at('m5', 'assistant', 6100, [
        done('b1', 'bash', { command: 'npm test' }, 'FAIL a.test.ts', 6200, marks ? 8000 : undefined),
      ]),
      at('m6', 'assistant', 6300, [{ id: 't6', type: 'text', text: 'One test fails.' }]),
      at('m7', 'user', 9000, [{ id: 'u7', type: 'text', text: 'Fix it' }]),
      at('m8', 'assistant', 9100, [{ id: 't8', type: 'text', text: 'Done.' }]),
    ],
  });

  it("OpenCode's prune (state.time.compacted) ends the context: from the next message on the output is the placeholder, before it the whole output", async () => {
    const fs = await load('ses.json', prunedSession(true));
    expect(fs.map((f) => f.id)).toEqual(['opencode.ses', 'opencode.ses.after-prune-1', 'opencode.ses.after-prune-2']);
    const [main, first, second] = fs as [Fixture, Fixture, Fixture];
    // Before the prune the model had every output whole.
    expect(main.items.map((i) => i.content)).not.toContain(CLEARED);
    expect(result(main, 'r1').content).toBe('<content>1: long file\n</content>');
    expect(result(main, 'r1').source).toMatchObject({ identity: '/r/a.ts' });
    expect(result(main, 'r2').flags.negativeResult).toBe(true);
    expect(main.items.at(-1)!.content).toBe('Fixed.');
    // The first prune (two parts, 5000 and 5001 ms) took effect at the next message: the same history, those two
    // outputs cleared, their calls as they were; the later-marked outputs are still whole.
    const history = main.items.map((i) => [i.kind, i.tool?.callId]);
    expect(first.items.slice(0, main.items.length).map((i) => [i.kind, i.tool?.callId])).toEqual(history);
    expect(result(first, 'r1')).toMatchObject({ content: CLEARED, status: { state: 'ok' } });
    expect(result(first, 'r1').source).toBeUndefined();
    expect(result(first, 'r2')).toMatchObject({ content: CLEARED, flags: { negativeResult: false } });
    expect(call(first, 'r1').content).toBe(call(main, 'r1').content);
    expect(call(first, 'r1').tool!.arguments).toEqual({ filePath: '/r/a.ts' });
    expect(result(first, 'r3').content).toBe('<content>1: b\n</content>');
    expect(result(first, 'b1')).toMatchObject({ content: 'FAIL a.test.ts', status: { state: 'error' } });
    expect(first.items.at(-1)!.content).toBe('One test fails.');
    // The second prune clears the bash output too; the mark after the last message was never sent: r3 stays whole.
    expect([result(second, 'r1'), result(second, 'r2'), result(second, 'b1')].map((i) => i.content)).toEqual([
      CLEARED,
      CLEARED,
      CLEARED,
    ]);
    expect(result(second, 'b1').status).toEqual({ state: 'ok' });
    expect(result(second, 'r3').content).toBe('<content>1: b\n</content>');
    expect(second.items.slice(-2).map((i) => i.content)).toEqual(['Fix it', 'Done.']);
    // Each prune point is in the session whose context it saw: the task boundary before a prune is the earlier
    // session's end, and the later session's points come after the prune.
    expect(main.prunePoints.map((p) => [p.id, p.time])).toEqual([['end', new Date(1500).toISOString()]]);
    expect(first.prunePoints.map((p) => [p.id, p.time])).toEqual([['end', new Date(6300).toISOString()]]);
    expect(second.prunePoints.map((p) => [p.id, p.time])).toEqual([['end', new Date(9100).toISOString()]]);
    expect(first.imported!.formatVersion).toBe('opencode 1.2.5');
    expect(first.tools).toEqual(expect.arrayContaining(main.tools));
  });

  it('a session without the marker imports as before: one context, every output whole', async () => {
    const fs = await load('ses.json', prunedSession(false));
    expect(fs.map((f) => f.id)).toEqual(['opencode.ses']);
    const [f] = fs as [Fixture];
    expect(f.items.map((i) => i.content)).not.toContain(CLEARED);
    expect(f.prunePoints.map((p) => p.id)).toEqual(['task-1', 'task-2', 'end']);
  });

  it('a compaction after a prune: the pruned context is what the summary was asked from; the one after it starts from the summary', async () => {
    const fs = await load('ses.json', {
      info: { id: 'ses_1', version: '1.2.5', title: 't', time: { created: 1, updated: 2 } },
      messages: [
        at('m1', 'user', 1000, [{ id: 'u1', type: 'text', text: 'Fix the build' }]),
        at('m2', 'assistant', 1100, [done('r1', 'read', { filePath: '/r/a.ts' }, 'long file', 1200, 5000)]),
        { ...compactionRequest('c1'), info: { ...compactionRequest('c1').info, time: { created: 6000 } } },
        summary('s1', 'c1'),
      ],
    });
    expect(fs.map((f) => f.id)).toEqual([
      'opencode.ses',
      'opencode.ses.after-prune-1',
      'opencode.ses.after-compaction-1',
    ]);
    const [main, pruned, after] = fs as [Fixture, Fixture, Fixture];
    expect(result(main, 'r1').content).toBe('long file');
    expect(pruned.items.map((i) => i.content)).toEqual([main.items[0]!.content, main.items[1]!.content, CLEARED]);
    expect(after.items.map((i) => i.content)).toEqual(['What did we do so far?', '## Goal\nFix the build.']);
  });
});

describe('OpenCode event stream (the server bus as a client recorded it)', () => {
  const ses = (id: string, parentID?: string) => ({
    type: 'session.updated',
    properties: {
      info: { id, version: '1.2.15', title: 't', time: { created: 1, updated: 2 }, ...(parentID ? { parentID } : {}) },
    },
  });
  const msgEv = (sessionID: string, id: string, role: string, created = 1750000000000) => ({
    type: 'message.updated',
    properties: { info: { id, sessionID, role, time: { created } } },
  });
  const partEv = (sessionID: string, messageID: string, part: Record<string, unknown>) => ({
    type: 'message.part.updated',
    properties: { part: { sessionID, messageID, ...part } },
  });
  const readPart = (status: string, extra: Record<string, unknown> = {}) => ({
    id: 'prt_t',
    type: 'tool',
    callID: 'call_1',
    tool: 'read',
    state: { status, input: [], ...extra },
  });

  it('the last version of each part is the one read; deltas append; removed messages and parts are gone; each session with messages is its own fixture', async () => {
    const fs = await load('stream.json', [
      { type: 'server.connected', properties: [] },
      ses('ses_other'),
      ses('ses_a'),
      msgEv('ses_a', 'msg_1', 'user'),
      partEv('ses_a', 'msg_1', { id: 'prt_u', type: 'text', text: 'read a.ts' }),
      msgEv('ses_a', 'msg_2', 'assistant'),
      partEv('ses_a', 'msg_2', { id: 'prt_x', type: 'text', text: 'Let me ' }),
      {
        type: 'message.part.delta',
        properties: { sessionID: 'ses_a', messageID: 'msg_2', partID: 'prt_x', field: 'text', delta: 'look.' },
      },
      partEv('ses_a', 'msg_2', readPart('pending')),
      partEv('ses_a', 'msg_2', readPart('running', { input: { filePath: '/r/a.ts' } })),
      partEv(
        'ses_a',
        'msg_2',
        readPart('completed', {
          input: { filePath: '/r/a.ts' },
          output: '<content>1: a\n\n(End of file - total 1 lines)\n</content>',
          metadata: {},
          time: { start: 2, end: 3 },
        }),
      ),
      partEv('ses_a', 'msg_2', { id: 'prt_gone', type: 'text', text: 'a part later removed' }),
      { type: 'message.part.removed', properties: { sessionID: 'ses_a', messageID: 'msg_2', partID: 'prt_gone' } },
      msgEv('ses_a', 'msg_3', 'assistant'),
      partEv('ses_a', 'msg_3', { id: 'prt_r', type: 'text', text: 'a reverted message' }),
      { type: 'message.removed', properties: { sessionID: 'ses_a', messageID: 'msg_3' } },
      ses('ses_sub', 'ses_a'),
      msgEv('ses_sub', 'msg_s1', 'user'),
      partEv('ses_sub', 'msg_s1', { id: 'prt_s', type: 'text', text: 'explore' }),
      { type: 'server.heartbeat', properties: [] },
    ]);
    expect(fs.map((f) => f.id)).toEqual(['opencode.stream.ses_a', 'opencode.stream.ses_sub']);
    const [a, sub] = fs as [Fixture, Fixture];
    expect(a.imported!.formatVersion).toBe('opencode 1.2.15, event stream');
    expect(a.items.map((i) => [i.kind, i.content])).toEqual([
      ['instruction', 'read a.ts'],
      ['reasoning', 'Let me look.'],
      ['tool-call', JSON.stringify({ tool: 'read', input: { filePath: '/r/a.ts' } })],
      ['tool-result', '<content>1: a\n\n(End of file - total 1 lines)\n</content>'],
    ]);
    expect(result(a, 'call_1').source).toMatchObject({ identity: '/r/a.ts' });
    expect(sub.items.map((i) => i.content)).toEqual(['explore']);
  });

  it('a prune the stream shows (the part sent again with state.time.compacted) ends the context as in an export', async () => {
    const output = '<content>1: a\n\n(End of file - total 1 lines)\n</content>';
    const completed = (time: Record<string, number>) =>
      readPart('completed', { input: { filePath: '/r/a.ts' }, output, metadata: {}, time });
    const fs = await load('prune.json', [
      ses('ses_a'),
      msgEv('ses_a', 'msg_1', 'user', 1000),
      partEv('ses_a', 'msg_1', { id: 'prt_u', type: 'text', text: 'read a.ts' }),
      msgEv('ses_a', 'msg_2', 'assistant', 1100),
      partEv('ses_a', 'msg_2', completed({ start: 1150, end: 1200 })),
      // SessionCompaction.prune stores the part again, marked, after the prompt's loop ended.
      partEv('ses_a', 'msg_2', completed({ start: 1150, end: 1200, compacted: 5000 })),
      msgEv('ses_a', 'msg_3', 'user', 6000),
      partEv('ses_a', 'msg_3', { id: 'prt_u3', type: 'text', text: 'thanks' }),
    ]);
    expect(fs.map((f) => f.id)).toEqual(['opencode.prune', 'opencode.prune.after-prune-1']);
    const [main, after] = fs as [Fixture, Fixture];
    expect(result(main, 'call_1').content).toBe(output);
    expect(after.items.map((i) => [i.kind, i.content])).toEqual([
      ['instruction', 'read a.ts'],
      ['tool-call', JSON.stringify({ tool: 'read', input: { filePath: '/r/a.ts' } })],
      ['tool-result', '[Old tool result content cleared]'],
      ['instruction', 'thanks'],
    ]);
    expect(after.imported!.formatVersion).toBe('opencode 1.2.15, event stream');
  });

  it('one session in the stream is one fixture under the file name; a tool still pending when the recording stops has no result', async () => {
    const f = await load('one.json', [
      ses('ses_a'),
      msgEv('ses_a', 'msg_1', 'user'),
      partEv('ses_a', 'msg_1', { id: 'prt_u', type: 'text', text: 'go' }),
      msgEv('ses_a', 'msg_2', 'assistant'),
      partEv('ses_a', 'msg_2', readPart('pending')),
    ]);
    expect(f.map((x) => x.id)).toEqual(['opencode.one']);
    expect(f[0]!.items.filter((i) => i.kind === 'tool-result')).toEqual([]);
  });

  it('refuses a delta to a part never sent, and parts of a message whose info never came, naming the file and the event', async () => {
    await expect(
      load('delta.json', [
        ses('ses_a'),
        msgEv('ses_a', 'msg_1', 'user'),
        partEv('ses_a', 'msg_1', { id: 'prt_u', type: 'text', text: 'go' }),
        {
          type: 'message.part.delta',
          properties: { sessionID: 'ses_a', messageID: 'msg_1', partID: 'prt_nope', field: 'text', delta: 'x' },
        },
      ]),
    ).rejects.toThrow(/delta\.json.*\$\[3\]\.properties\.partID.*prt_nope/);
    await expect(
      load('orphan.json', [ses('ses_a'), partEv('ses_a', 'msg_1', { id: 'prt_u', type: 'text', text: 'go' })]),
    ).rejects.toThrow(/orphan\.json.*msg_1.*no message\.updated/);
    // Bus events that carry no message part are no session: the file is an unknown format, not an empty OpenCode one.
    await expect(load('bus.json', [{ type: 'server.connected', properties: [] }, ses('ses_a')])).rejects.toThrow(
      /bus\.json.*a JSON array of 2 values/,
    );
  });
});

describe('unreadable files', () => {
  it('name the file and the position: the line of a bad JSON Lines record, the JSON path of a bad field', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'cut.jsonl'),
      '{"instance_id":"a","history":[{"action":"message","args":{"content":"x"}}]}\n{"instance_id":"b","history":[{"action":',
    );
    await expect(
      importFile(join(dir, 'cut.jsonl'), 'cut.jsonl', { redact: true, tokens: tokenCounter() }),
    ).rejects.toThrow(/cut\.jsonl.*line 2.*truncated/);
    await expect(
      load(
        'shape.jsonl',
        [
          { instance_id: 'a', history: [{ action: 'message', args: { content: 'x' } }] },
          {
            instance_id: 'b',
            history: [
              { action: 'message', args: { content: 'y' } },
              { action: 'run', args: { command: 'ls' } },
              { observation: 'run', content: 42 },
            ],
          },
        ],
        true,
      ),
    ).rejects.toThrow(/shape\.jsonl.*line 2, \$\.history\[2\]\.content.*expected a string/);
  });
});
