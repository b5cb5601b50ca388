import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Fixture, type Item } from '../../src/fixture/schema.js';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { importTraces } from '../../src/traces/import.js';
import { REAL, imported, sample, tempDir } from './support.js';

const byKind = (items: readonly Item[], kind: Item['kind']) => items.filter((i) => i.kind === kind);

/** Every call has exactly one result at most, and every result answers an earlier call with the same tool. */
function callsPair(items: readonly Item[]): void {
  const calls = new Map(byKind(items, 'tool-call').map((c) => [c.tool!.callId, c]));
  for (const r of byKind(items, 'tool-result')) {
    const call = calls.get(r.tool!.callId);
    expect(call, `result ${r.id} answers a call`).toBeDefined();
    expect(call!.tool!.name).toBe(r.tool!.name);
    expect(items.indexOf(call!)).toBeLessThan(items.indexOf(r));
  }
}

describe('swe-agent importer', () => {
  it('imports the real pydicom trajectory: history in order, own commands as tools, rejected edits as errors', async () => {
    const t = await imported(join(REAL, 'swe-agent', 'pydicom__pydicom-1458.traj'), 'swe-agent');
    const f = Fixture.parse(t.fixture);
    expect(f.items).toHaveLength(26);
    expect(f.items[0]).toMatchObject({ origin: 'system', kind: 'instruction' });
    expect(f.items[2]).toMatchObject({ origin: 'user', kind: 'instruction' });
    expect(f.items[2]!.content).toContain('Pixel Representation attribute should be optional');
    callsPair(f.items);
    const rejected = f.items.filter((i) => i.status?.state === 'error' && i.status.errorType === 'edit-rejected');
    expect(rejected).toHaveLength(3);
    const open = f.items.find((i) => i.kind === 'tool-result' && i.tool!.name === 'open')!;
    expect(open.source).toMatchObject({
      identity: '/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py',
      version: 'UNKNOWN',
    });
    const edit = f.items.find((i) => i.kind === 'tool-call' && i.tool!.name === 'edit' && i.turn > open.turn)!;
    expect(edit.effects).toEqual([
      { source: '/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py', outcome: 'failed' },
    ]);
    expect(f.tools.find((x) => x.name === 'edit')!.sideEffect).toBe('non-idempotent');
    expect(f.imported).toMatchObject({
      format: 'swe-agent',
      sourceFile: 'pydicom__pydicom-1458.traj',
      timestamps: 'synthetic',
      importerVersion: '2.11.0',
      formatVersion: '0.x',
    });
    expect(f.prunePoints).toEqual([
      expect.objectContaining({
        id: 'end',
        turn: f.items[f.items.length - 1]!.turn,
        taskBoundary: false,
        downstream: [],
      }),
    ]);
  });

  it('imports the second real trajectory and every turn only grows', async () => {
    const f = (await imported(join(REAL, 'swe-agent', 'swe-agent__test-repo-i1.traj'))).fixture;
    expect(f.items.map((i) => i.turn)).toEqual([...f.items.map((i) => i.turn)].sort((a, b) => a - b));
    expect(f.items.filter((i) => i.kind === 'tool-call').map((i) => i.tool!.name)).toEqual([
      'find_file',
      'open',
      'edit',
      'shell.exec',
      'submit',
    ]);
  });
});

describe('mini-swe-agent importer', () => {
  it('imports the real sqlfluff run: tool calls by id, return codes as status, recorded timestamps', async () => {
    const f = (await imported(join(REAL, 'mini-swe-agent', 'sqlfluff__sqlfluff-2419.traj.json'), 'mini-swe-agent'))
      .fixture;
    callsPair(f.items);
    expect(f.imported!.timestamps).toBe('inferred');
    const cat = f.items.find(
      (i) => i.kind === 'tool-result' && i.tool!.arguments['command'] === 'cat ./src/sqlfluff/rules/L060.py',
    )!;
    expect(cat).toMatchObject({
      tool: { name: 'shell.read' },
      status: { state: 'ok' },
      source: { identity: 'src/sqlfluff/rules/L060.py', version: 'UNKNOWN', mutable: 'UNKNOWN' },
    });
    const failed = f.items.filter((i) => i.status?.state === 'error');
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.every(
        (i) =>
          i.status!.state === 'error' && (i.status!.errorType === 'exit-code' || i.status!.errorType === 'exception'),
      ),
    ).toBe(true);
    expect(f.items.some((i) => i.content.includes('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT'))).toBe(true);
    expect(f.items.at(-1)!.origin).not.toBe('user');
    expect(new Date(f.items[3]!.time).getUTCFullYear()).toBe(2026);
  });

  it('imports the real pvlib run, whose assistant turns carry only tool calls', async () => {
    const f = (await imported(join(REAL, 'mini-swe-agent', 'pvlib__pvlib-python-1072.traj.json'))).fixture;
    expect(byKind(f.items, 'tool-call').length).toBe(15);
    expect(byKind(f.items, 'tool-result').length).toBe(15);
    expect(
      f.items
        .filter((i) => i.tool?.name === 'shell.read')
        .every(() => f.tools.find((t) => t.name === 'shell.read')!.sideEffect === 'read-mutable'),
    ).toBe(true);
  });
});

describe('openhands importer', () => {
  it('pairs observations with their causing actions and reads exit codes and paths', async () => {
    const f = (await imported(sample('openhands-events.json'), 'openhands')).fixture;
    callsPair(f.items);
    expect(f.items[0]).toMatchObject({
      origin: 'system',
      kind: 'instruction',
      content: expect.stringContaining('You are OpenHands agent'),
    });
    expect(f.items[1]).toMatchObject({ origin: 'user', kind: 'instruction', time: '2025-03-01T09:00:01.000Z' });
    expect(f.items.some((i) => i.content.includes('Retrieving content'))).toBe(false);
    expect(f.items.some((i) => i.content === '')).toBe(false);
    const failing = f.items.find((i) => i.status?.state === 'error')!;
    expect(failing).toMatchObject({
      tool: { name: 'shell.exec', callId: 'ev-4' },
      status: { errorType: 'exit-code', fields: { exitCode: '1' } },
    });
    expect(f.items.find((i) => i.kind === 'tool-result' && i.tool!.name === 'read')!.source!.identity).toBe(
      '/workspace/calc.py',
    );
    expect(f.items.find((i) => i.kind === 'tool-call' && i.tool!.name === 'edit')!.effects).toEqual([
      { source: '/workspace/calc.py', outcome: 'succeeded' },
    ]);
    expect(f.items.at(-1)).toMatchObject({
      origin: 'model',
      kind: 'reasoning',
      content: 'The test passes after fixing the sign in calc.add.',
    });
    expect(f.items.some((i) => i.content.includes('agent_state'))).toBe(false);
  });
});

describe('claude-code importer', () => {
  it('reads user and assistant records, keeps sidechains out of the main session, skips summaries and thinking, and marks a new prompt as a task boundary', async () => {
    const f = (await imported(sample('claude-code-session.jsonl'), 'claude-code')).fixture;
    callsPair(f.items);
    expect(f.items.some((i) => i.content.includes('sub-agent'))).toBe(false);
    expect(f.items.some((i) => i.content.includes('I should read the parser'))).toBe(false);
    expect(f.items.find((i) => i.tool?.callId === 'toolu_01A' && i.kind === 'tool-result')!.source!.identity).toBe(
      '/repo/src/parser.ts',
    );
    expect(f.items.find((i) => i.tool?.callId === 'toolu_01B' && i.kind === 'tool-result')!.status).toMatchObject({
      state: 'error',
      errorType: 'tool-error',
    });
    expect(f.items.find((i) => i.tool?.callId === 'toolu_01C' && i.kind === 'tool-call')!.effects).toEqual([
      { source: '/repo/src/parser.ts', outcome: 'succeeded' },
    ]);
    const [boundary, end] = f.prunePoints;
    expect(boundary).toMatchObject({ id: 'task-1', taskBoundary: true });
    expect(boundary!.subgoal).toContain('trailing commas');
    expect(end).toMatchObject({ id: 'end', taskBoundary: false, subgoal: 'Thanks. Now also add a changelog entry.' });
    const prompt = f.items.find((i) => i.content.startsWith('Thanks.'))!;
    expect(boundary!.turn).toBeLessThan(prompt.turn);
    expect(f.items.filter((i) => i.turn <= boundary!.turn).every((i) => !i.content.startsWith('Thanks.'))).toBe(true);
    expect(f.imported!.timestamps).toBe('recorded');
  });
});

describe('opencode importer', () => {
  it('reads text and tool parts, states as status, leaves reasoning and an unfinished call without a result', async () => {
    const f = (await imported(sample('opencode-export.json'), 'opencode')).fixture;
    callsPair(f.items);
    expect(f.items.some((i) => i.content === 'run the linter')).toBe(false);
    expect(f.items.find((i) => i.tool?.callId === 'call_lint1' && i.kind === 'tool-result')!.status).toMatchObject({
      state: 'error',
      errorType: 'exit-code',
    });
    expect(f.items.find((i) => i.tool?.callId === 'call_edit1' && i.kind === 'tool-result')!.status).toMatchObject({
      state: 'error',
      message: 'oldString not found in content',
    });
    expect(f.items.find((i) => i.tool?.callId === 'call_read1' && i.kind === 'tool-result')!.source!.identity).toBe(
      '/repo/src/a.ts',
    );
    expect(f.items.find((i) => i.tool?.callId === 'call_grep1' && i.kind === 'tool-result')!.flags.negativeResult).toBe(
      true,
    );
    expect(f.items.filter((i) => i.tool?.callId === 'call_test1').map((i) => i.kind)).toEqual(['tool-call']);
    expect(f.items[0]).toMatchObject({
      origin: 'user',
      time: new Date(1750000000000).toISOString(),
      flags: { soleConstraintRecord: true },
    });
    expect(f.prunePoints.map((p) => [p.id, p.taskBoundary])).toEqual([
      ['task-1', true],
      ['end', false],
    ]);
  });

  it('every sample and real trace imports to a fixture the schema accepts, with no oracle and no downstream obligations', async () => {
    const files = [
      ...readdirSync(join(REAL, 'swe-agent'))
        .filter((n) => n.endsWith('.traj'))
        .map((n) => join(REAL, 'swe-agent', n)),
      ...readdirSync(join(REAL, 'mini-swe-agent'))
        .filter((n) => n.endsWith('.json'))
        .map((n) => join(REAL, 'mini-swe-agent', n)),
      sample('openhands-events.json'),
      sample('claude-code-session.jsonl'),
      sample('opencode-export.json'),
    ];
    for (const file of files) {
      const f = Fixture.parse((await imported(file)).fixture);
      expect(f.prunePoints.every((p) => p.downstream.length === 0 && p.visible.obligations.length === 0)).toBe(true);
      expect(f.imported).toBeDefined();
    }
  });
});

describe('importing several traces', () => {
  it('refuses two files that would become one fixture id, naming both', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'b'));
    copyFileSync(sample('openhands-events.json'), join(dir, 'openhands-events.json'));
    copyFileSync(sample('openhands-events.json'), join(dir, 'b', 'openhands-events.json'));
    const files = ['openhands-events.json', 'b/openhands-events.json'].map((f) => ({ path: join(dir, f), shownAs: f }));
    await expect(importTraces(files, { redact: true, tokens: tokenCounter() })).rejects.toThrow(
      /b\/openhands-events\.json: would be imported as "openhands\.openhands-events", which openhands-events\.json also becomes/,
    );
    expect(await importTraces(files.slice(0, 1), { redact: true, tokens: tokenCounter() })).toHaveLength(1);
  });
});
