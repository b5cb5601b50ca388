import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Fixture, Oracle } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { scorePoint, type AppliedRemoval } from '../../src/score/score.js';

const stored = 'openapi: 3.1.0\npaths:\n  /v1/refunds:\n    post: {}\n';
const hash = (s: string) => `sha256:${createHash('sha256').update(s, 'utf8').digest('hex')}`;

function fixture(
  pointerHash = hash(stored),
  store: { key: string; content: string; fromTurn?: number }[] = [{ key: 'notes/api.yaml', content: stored }],
) {
  return Fixture.parse({
    schemaVersion: 1,
    id: 'score',
    title: 'scoring',
    description: 'recovery and alerts',
    tools: [
      { name: 'read', sideEffect: 'read-mutable' },
      { name: 'probe', sideEffect: 'read-mutable' },
    ],
    items: [
      {
        id: 'spec',
        turn: 1,
        time: '2026-03-04T10:00:00Z',
        origin: 'environment',
        kind: 'tool-result',
        content: stored,
        tool: { name: 'read', arguments: { path: 'api.yaml' }, callId: 'a' },
        status: { state: 'ok' },
        source: { identity: 'repo:api.yaml', version: { kind: 'git-sha', value: 'abc' }, mutable: true },
        flags: { durablePointer: { storeKey: 'notes/api.yaml', contentHash: pointerHash } },
      },
      {
        id: 'cfg',
        turn: 2,
        time: '2026-03-04T10:01:00Z',
        origin: 'environment',
        kind: 'tool-result',
        content: '{"pool": 20}',
        tool: { name: 'read', arguments: { path: 'config.json' }, callId: 'b' },
        status: { state: 'ok' },
        source: { identity: 'repo:config.json', version: { kind: 'content-hash', value: '1' }, mutable: true },
      },
      {
        id: 'lim',
        turn: 3,
        time: '2026-03-04T10:02:00Z',
        origin: 'environment',
        kind: 'tool-result',
        content: 'ulimit: unlimited',
        tool: { name: 'probe', arguments: { cmd: 'ulimit -a' }, callId: 'c' },
        status: { state: 'ok' },
        flags: { negativeResult: true },
      },
      {
        id: 'again',
        turn: 6,
        time: '2026-03-04T10:09:00Z',
        origin: 'model',
        kind: 'tool-call',
        content: 'probe ulimit -a',
        tool: { name: 'probe', arguments: { cmd: 'ulimit -a' }, callId: 'd' },
      },
    ],
    world: {
      sources: [
        {
          identity: 'repo:config.json',
          history: [
            { fromTurn: 0, content: '{"pool": 20}' },
            { fromTurn: 4, content: '{"pool": 5}' },
          ],
        },
        { identity: 'repo:api.yaml', history: [{ fromTurn: 0, content: stored }] },
      ],
      store,
    },
    prunePoints: [
      {
        id: 'pp',
        turn: 3,
        time: '2026-03-04T10:03:00Z',
        budgetTokens: 50,
        subgoal: 'raise the pool size',
        downstream: [
          {
            id: 'spec-needed',
            description: 'refund path',
            neededAtTurn: 5,
            needs: { itemIds: ['spec'], strings: ['/v1/refunds'] },
            pointerSatisfies: true,
            probe: { question: 'q', expectedAnswer: 'a' },
          },
          {
            id: 'old-pool',
            description: 'pool was 20',
            neededAtTurn: 5,
            needs: { itemIds: ['cfg'], strings: ['"pool": 20'] },
            rereadSatisfies: true,
            probe: { question: 'q', expectedAnswer: 'a' },
          },
          {
            id: 'limit',
            description: 'the earlier limit',
            neededAtTurn: 5,
            needs: { itemIds: ['lim'], strings: ['unlimited'] },
            probe: { question: 'q', expectedAnswer: 'a' },
          },
        ],
      },
    ],
  });
}

const oracle = Oracle.parse({
  schemaVersion: 1,
  fixtureId: 'score',
  points: [{ prunePoint: 'pp', removable: ['spec'] }],
});

function score(removed: string[], f = fixture()) {
  const view = buildView(f, 'pp', (t) => t.length);
  const removals: AppliedRemoval[] = removed.map((itemId) => ({
    itemId,
    leftBehind: `[pruned ${itemId}]`,
    leftBehindTokens: 3,
  }));
  return scorePoint({
    condition: 'test',
    fixture: f,
    point: f.prunePoints[0]!,
    oracle: oracle.points[0]!,
    view,
    decisions: view.items.map((i) => ({ itemId: i.id, decision: removed.includes(i.id) ? 'PRUNE' : 'KEEP' })),
    removals,
    overheadTokens: 0,
  }).measures;
}

describe('scoring a prune point', () => {
  it('leaves precision and false-prune rate undefined when nothing was removed', () => {
    const m = score([]);
    expect(m.precision).toEqual({ numerator: 0, denominator: 0, value: null });
    expect(m.falsePruneRate.value).toBeNull();
    expect(m.coverage).toEqual({ numerator: 0, denominator: 1, value: 0 });
    expect(m.obligations).toEqual({ preserved: 3, total: 3 });
    expect(m.tokens.final).toBe(m.tokens.raw);
  });

  it('counts a removal recovered through a pointer whose bytes hash as recorded', () => {
    const m = score(['spec']);
    expect(m.precision.value).toBe(1);
    expect(m.obligationOutcomes.find((o) => o.id === 'spec-needed')).toMatchObject({ preserved: true, how: 'pointer' });
    expect(m.tokens).toEqual({
      raw: m.tokens.raw,
      removed: stored.length,
      placeholder: 3,
      overhead: 0,
      final: m.tokens.raw - stored.length + 3,
    });
  });

  it('does not trust a pointer whose stored bytes hash differently', () => {
    const m = score(['spec'], fixture(hash('something else')));
    expect(m.obligationOutcomes.find((o) => o.id === 'spec-needed')).toMatchObject({
      preserved: false,
      how: 'lost',
      missing: ['/v1/refunds'],
    });
  });

  it('resolves a pointer against the store as of the turn the obligation needs it: a later write breaks it, an earlier one is replaced', () => {
    const rewritten = [
      { key: 'notes/api.yaml', content: stored, fromTurn: 1 },
      { key: 'notes/api.yaml', content: 'openapi: 3.1.0\npaths: {}\n', fromTurn: 4 },
    ];
    expect(
      score(['spec'], fixture(hash(stored), rewritten)).obligationOutcomes.find((o) => o.id === 'spec-needed'),
    ).toMatchObject({ preserved: false, how: 'lost', missing: ['/v1/refunds'] });
    const restored = [...rewritten, { key: 'notes/api.yaml', content: stored, fromTurn: 5 }];
    expect(
      score(['spec'], fixture(hash(stored), restored)).obligationOutcomes.find((o) => o.id === 'spec-needed'),
    ).toMatchObject({ preserved: true, how: 'pointer' });
    const tooLate = [{ key: 'notes/api.yaml', content: stored, fromTurn: 6 }];
    expect(
      score(['spec'], fixture(hash(stored), tooLate)).obligationOutcomes.find((o) => o.id === 'spec-needed'),
    ).toMatchObject({ preserved: false, how: 'lost' });
  });

  it('computes a re-read against the world: a mutable source that changed does not recover the old bytes', () => {
    const m = score(['cfg']);
    expect(m.falsePruneRate).toEqual({ numerator: 1, denominator: 1, value: 1 });
    expect(m.obligationOutcomes.find((o) => o.id === 'old-pool')).toMatchObject({ preserved: false, how: 'lost' });
  });

  it('raises a re-fetch alert when a removed irreducible result is fetched again later', () => {
    const m = score(['lim']);
    expect(m.refetchAlerts).toBe(1);
    expect(m.alerts).toEqual([{ itemId: 'lim', refetchedBy: 'again' }]);
    expect(score(['spec']).refetchAlerts).toBe(0);
  });
});
