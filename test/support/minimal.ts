// A small valid fixture and oracle, written to a temporary folder, that tests break one field at a time.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function minimalFixture(): Record<string, unknown> & {
  items: Record<string, unknown>[];
  prunePoints: Record<string, unknown>[];
} {
  return {
    schemaVersion: 1,
    id: 'mini',
    title: 'Minimal fixture',
    description: 'Two identical directory listings and a user constraint.',
    tools: [{ name: 'shell', sideEffect: 'read-mutable' }],
    items: [
      {
        id: 'u1',
        turn: 0,
        time: '2026-03-04T10:00:00Z',
        origin: 'user',
        kind: 'constraint',
        content: 'Never run migrations against prod-eu.',
        flags: { soleConstraintRecord: true },
      },
      {
        id: 'c1',
        turn: 1,
        time: '2026-03-04T10:01:00Z',
        origin: 'model',
        kind: 'tool-call',
        content: 'shell ls src',
        tool: { name: 'shell', arguments: { cmd: 'ls src' }, callId: 'k1' },
      },
      {
        id: 'r1',
        turn: 1,
        time: '2026-03-04T10:01:02Z',
        origin: 'environment',
        kind: 'tool-result',
        content: 'index.ts\nmigrate.ts\n',
        tool: { name: 'shell', arguments: { cmd: 'ls src' }, callId: 'k1' },
        status: { state: 'ok' },
      },
      {
        id: 'c2',
        turn: 2,
        time: '2026-03-04T10:02:00Z',
        origin: 'model',
        kind: 'tool-call',
        content: 'shell ls src',
        tool: { name: 'shell', arguments: { cmd: 'ls src' }, callId: 'k2' },
      },
      {
        id: 'r2',
        turn: 2,
        time: '2026-03-04T10:02:02Z',
        origin: 'environment',
        kind: 'tool-result',
        content: 'index.ts\nmigrate.ts\n',
        tool: { name: 'shell', arguments: { cmd: 'ls src' }, callId: 'k2' },
        status: { state: 'ok' },
      },
      {
        id: 'c3',
        turn: 5,
        time: '2026-03-04T10:09:00Z',
        origin: 'model',
        kind: 'tool-call',
        content: 'shell ls src',
        tool: { name: 'shell', arguments: { cmd: 'ls src' }, callId: 'k3' },
      },
    ],
    prunePoints: [
      {
        id: 'pp1',
        turn: 2,
        time: '2026-03-04T10:03:00Z',
        budgetTokens: 1000,
        subgoal: 'list the source files',
        visible: { obligations: [] },
        downstream: [
          {
            id: 'd1',
            description: 'the constraint holds at deploy',
            neededAtTurn: 4,
            needs: { itemIds: ['u1'], strings: ['prod-eu'] },
            probe: { question: 'Where must migrations never run?', expectedAnswer: 'prod-eu' },
          },
        ],
      },
    ],
  };
}

export function minimalOracle(): Record<string, unknown> & { points: Record<string, unknown>[] } {
  return {
    schemaVersion: 1,
    fixtureId: 'mini',
    points: [
      {
        prunePoint: 'pp1',
        removable: ['c1', 'c2'],
        redundantGroups: [{ items: ['r1', 'r2'], keep: 1 }],
        rationale: 'the listings are copies',
      },
    ],
  };
}

/** Writes a fixture (and its oracle unless null) into a fresh folder; returns the folder and the fixture's path. */
export function writeFixture(
  fixture: unknown = minimalFixture(),
  oracle: unknown = minimalOracle(),
  name = 'mini',
): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-test-'));
  mkdirSync(join(dir, 'oracles'));
  const file = join(dir, `${name}.json`);
  writeFileSync(file, typeof fixture === 'string' ? fixture : JSON.stringify(fixture, null, 2));
  if (oracle !== null)
    writeFileSync(
      join(dir, 'oracles', `${name}.oracle.json`),
      typeof oracle === 'string' ? oracle : JSON.stringify(oracle, null, 2),
    );
  return { dir, file };
}
