import { describe, expect, it } from 'vitest';
import type { ItemSpec } from './build-view.js';
import { at, condition, decideById, makeView, result, verdicts } from './build-view.js';

const si = condition('source-identity');
const sha = (value: string) => ({ kind: 'git-sha', value, of: 'blob' });
const src = (identity: string, version: unknown, mutable: unknown, selector?: string) => ({
  source: { identity, version, mutable, ...(selector !== undefined ? { selector } : {}) },
});

describe('source-identity (rung 1)', () => {
  it('makes all but the latest read of one known version eligible where the latest shows what each showed', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'file v1', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'file v1', src('repo:a.ts', sha('aaa'), true)),
        result('r3', 3, 'file v1', src('repo:a.ts', sha('aaa'), true)),
      ],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'eligible', r2: 'eligible', r3: 'keep' });
    expect(at(d, 'r1').reason).toBe(
      'reads repo:a.ts (read_file whole) at git blob aaa, as does r3, the latest read of that view and state, which stays',
    );
    expect(at(d, 'r1').rung).toBe(1);
  });

  it('pairs renderings of one version only where the read that stays holds the removed one whole', () => {
    // Until source-identity 2.5.0 one version paired reads whatever they showed (r1 and r2 here went for r3).
    const view = makeView({
      items: [
        result('r1', 1, 'file v1 (first render)', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'file v1', src('repo:a.ts', sha('aaa'), true)),
        result('r3', 3, 'file v1 (third render)', src('repo:a.ts', sha('aaa'), true)),
      ],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'abstain', r2: 'eligible', r3: 'keep' });
    expect(at(d, 'r1').reason).toBe(
      "cannot establish that a read which stays shows what r1 shows: r3 reads repo:a.ts (read_file whole) at git blob aaa too, but what it shows does not hold r1's text and blocks whole (a stub, or another rendering of the state), and no read of that view and state between them does",
    );
    expect(at(d, 'r2').reason).toBe(
      "reads repo:a.ts (read_file whole) at git blob aaa, as does r3, the latest read of that view and state, which stays, its text and blocks whole within r3's",
    );
  });

  it('keeps reads of different known versions', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'v1', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'v2', src('repo:a.ts', sha('bbb'), true)),
      ],
    });
    expect(verdicts(si, view)).toEqual({ r1: 'keep', r2: 'keep' });
  });

  it('abstains on a mutable or UNKNOWN-mutability source read with UNKNOWN version, keeping the latest', () => {
    for (const mutable of [true, 'UNKNOWN']) {
      const view = makeView({
        items: [
          result('r1', 1, 'same', src('repo:cfg', 'UNKNOWN', mutable)),
          result('r2', 2, 'same', src('repo:cfg', 'UNKNOWN', mutable)),
        ],
      });
      const d = decideById(si, view);
      expect(verdicts(si, view)).toEqual({ r1: 'abstain', r2: 'keep' });
      expect(at(d, 'r1').reason).toMatch(/^cannot establish same source state/);
      expect(at(d, 'r1').reason).toContain(`mutable: ${String(mutable)}`);
    }
  });

  it('treats an immutable source as one state even without a version', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'doc', src('pkg:lodash@4', 'UNKNOWN', false)),
        result('r2', 2, 'doc', src('pkg:lodash@4', 'UNKNOWN', false)),
      ],
    });
    expect(verdicts(si, view)).toEqual({ r1: 'eligible', r2: 'keep' });
  });

  it('abstains on a known-version read when the only later read has UNKNOWN version', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'x', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'x', src('repo:a.ts', 'UNKNOWN', true)),
      ],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'abstain', r2: 'keep' });
    expect(at(d, 'r1').reason).toContain('the later read of the same view r2 reads repo:a.ts with UNKNOWN version');
  });

  it('names the latest read of the same state across reads of other states', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'a', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'b', src('repo:a.ts', sha('bbb'), true)),
        result('r3', 3, 'a', src('repo:a.ts', sha('aaa'), true)),
      ],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'eligible', r2: 'keep', r3: 'keep' });
    expect(at(d, 'r1').reason).toContain('as does r3');
  });

  it('requires the same selector and an ok status', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'lines 1-10', src('repo:a.ts', sha('aaa'), true, '1-10')),
        result('r2', 2, 'lines 11-20', src('repo:a.ts', sha('aaa'), true, '11-20')),
        result('r3', 3, 'boom', {
          ...src('repo:a.ts', sha('aaa'), true),
          status: { state: 'error', errorType: 'EIO', message: 'read failed' },
        }),
        result('r4', 4, 'all', src('repo:a.ts', sha('aaa'), true)),
      ],
    });
    expect(verdicts(si, view)).toEqual({ r1: 'keep', r2: 'keep', r3: 'keep', r4: 'keep' });
  });

  it('keeps a protected older read and still removes nothing it protects', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'x', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'x', src('repo:a.ts', sha('aaa'), true)),
      ],
      visible: { pinned: ['r1'] },
    });
    expect(verdicts(si, view)).toEqual({ r1: 'keep', r2: 'keep' });
  });
});

describe('source-identity: the view and what the version hashes', () => {
  const hash = { kind: 'content-hash', value: 'sha256:1f2e' };
  const read = (id: string, turn: number, selector: unknown, extra: Record<string, unknown> = {}, tool = 'read_file') =>
    // One text for every read: reads of one state show the same bytes unless a test says otherwise.
    result(id, turn, 'export const max = 8;', {
      tool: { name: tool, arguments: { path: 'src/pool.ts' }, callId: `call-${id}` },
      source: {
        identity: 'repo:src/pool.ts',
        version: hash,
        mutable: true,
        ...(selector !== undefined ? { selector } : {}),
      },
      ...extra,
    });

  it('refuses different line ranges, truncated versus whole, and different tools of one version', () => {
    const view = makeView({
      items: [
        read('r1', 1, { kind: 'lines', from: 1, to: 40 }),
        read('r2', 2, { kind: 'lines', from: 41, to: 80 }),
        read('r3', 3, { kind: 'whole', truncated: true }),
        read('r4', 4, undefined, {}, 'cat'),
        read('r5', 5, { kind: 'whole' }),
      ],
    });
    expect(verdicts(si, view)).toEqual({ r1: 'keep', r2: 'keep', r3: 'keep', r4: 'keep', r5: 'keep' });
  });

  it('removes the same view at the same content hash, an absent selector being a whole read', () => {
    const view = makeView({
      items: [
        read('r1', 1, undefined),
        read('r2', 2, { kind: 'whole' }),
        read('r3', 3, { kind: 'lines', from: 1, to: 40 }),
        read('r4', 4, { kind: 'lines', from: 1, to: 40 }),
      ],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'eligible', r2: 'keep', r3: 'eligible', r4: 'keep' });
    expect(at(d, 'r3').reason).toBe(
      'reads repo:src/pool.ts (read_file lines 1-40) at content hash sha256:1f2e, as does r4, the latest read of that view and state, which stays',
    );
  });

  it('abstains on a commit sha for a mutable working-tree source, and accepts it for an immutable one', () => {
    const commit = { kind: 'git-sha', value: '9c1e2f0', of: 'commit' };
    for (const version of [commit, { kind: 'git-sha', value: '9c1e2f0' }]) {
      const mutable = makeView({
        items: [
          read('r1', 1, undefined, { source: { identity: 'repo:src/pool.ts', version, mutable: true } }),
          read('r2', 2, undefined, { source: { identity: 'repo:src/pool.ts', version, mutable: true } }),
        ],
      });
      const d = decideById(si, mutable);
      expect(at(d, 'r1').verdict).toBe('abstain');
      expect(at(d, 'r1').reason).toContain(
        'pinned only by commit 9c1e2f0, which fixes the committed tree, not the state of mutable source',
      );
    }
    const show = (id: string, turn: number) =>
      read(
        id,
        turn,
        undefined,
        { source: { identity: 'git:9c1e2f0:src/pool.ts', version: commit, mutable: false } },
        'git_show',
      );
    expect(verdicts(si, makeView({ items: [show('r1', 1), show('r2', 2)] }))).toEqual({ r1: 'eligible', r2: 'keep' });
  });

  it('acts on agent-writes but says it is a weaker guarantee', () => {
    const aw = { kind: 'agent-writes', value: '2' };
    const same = { source: { identity: 'repo:src/pool.ts', version: aw, mutable: true }, content: 'max = 8' };
    const view = makeView({ items: [read('r1', 1, undefined, same), read('r2', 2, undefined, same)] });
    const d = decideById(si, view);
    expect(at(d, 'r1').verdict).toBe('eligible');
    expect(at(d, 'r1').reason).toContain('a weaker guarantee than a recorded version');
  });

  it('abstains on twins under a label that hashes nothing read (agent-writes, etag, immutability) when their bytes differ; under a hash, where the read that stays does not show the older one', () => {
    const under = (version: unknown, mutable: boolean, content: string) => ({
      source: { identity: 'repo:src/pool.ts', version, mutable },
      content,
    });
    const pair = (version: unknown, mutable = true) =>
      makeView({
        items: [
          read('r1', 1, undefined, under(version, mutable, '{"requests": 1200}')),
          read('r2', 2, undefined, under(version, mutable, '{"requests": 1900}')),
        ],
      });
    for (const [label, mutable] of [
      [{ kind: 'agent-writes', value: '0' }, true],
      [{ kind: 'etag', value: '"7"' }, true],
      [{ kind: 'etag', value: 'W/"7"' }, true],
      // Immutability is a declaration, and hashes nothing read (source-identity 2.8.0, review G judgement 3).
      ['UNKNOWN', false],
      [{ kind: 'git-sha', value: 'c0ffee', of: 'commit' }, false],
    ] as const) {
      const d = at(decideById(si, pair(label, mutable)), 'r1');
      expect(d.verdict).toBe('abstain');
      expect(d.reason).toContain('hashes nothing read, and what they show differs');
    }
    // A hash of the source's content says the state is one, but the read that stays must still show what the
    // removed one showed: it paired these until source-identity 2.5.0.
    for (const [version, mutable] of [[hash, true]] as const) {
      const d = at(decideById(si, pair(version, mutable)), 'r1');
      expect(d.verdict).toBe('abstain');
      expect(d.reason).toContain("but what it shows does not hold r1's text and blocks whole");
      // Where the newer rendering holds the older whole, they pair.
      const holds = makeView({
        items: [
          read('r1', 1, undefined, under(version, mutable, '{"requests": 1200}')),
          read('r2', 2, undefined, under(version, mutable, 'config.json (unchanged):\n{"requests": 1200}\n')),
        ],
      });
      expect(at(decideById(si, holds), 'r1').verdict).toBe('eligible');
    }
  });

  // An edit with one recorded effect on the pool source and no result in context (so nothing records when its outcome
  // came, and it is ordered on neither side of a read it was not issued after), and reads under an etag, a label that
  // hashes nothing read.
  const write = (id: string, turn: number, outcome: string): ItemSpec => ({
    id,
    turn,
    kind: 'tool-call',
    origin: 'model',
    content: 'edit',
    tool: { name: 'edit', arguments: { path: 'src/pool.ts' }, callId: `call-${id}` },
    effects: [{ source: 'repo:src/pool.ts', outcome }],
  });
  const etag = { identity: 'repo:src/pool.ts', version: { kind: 'etag', value: 'W/"7"' }, mutable: true };
  const tagged = { source: etag, content: 'max = 8' };

  it('abstains when a write to the source lies between reads whose label does not hash the content, not when it does', () => {
    const pinned = makeView({
      items: [read('r1', 1, undefined, tagged), write('c2', 2, 'succeeded'), read('r3', 3, undefined, tagged)],
    });
    expect(at(decideById(si, pinned), 'r1').verdict).toBe('abstain');
    expect(at(decideById(si, pinned), 'r1').reason).toContain(
      'c2 (succeeded, not ordered relative to the reads) between them recorded a write to repo:src/pool.ts',
    );
    const failedWrite = makeView({
      items: [read('r1', 1, undefined, tagged), write('c2', 2, 'failed'), read('r3', 3, undefined, tagged)],
    });
    expect(at(decideById(si, failedWrite), 'r1').verdict).toBe('eligible');
    const hashed = makeView({
      items: [read('r1', 1, undefined), write('c2', 2, 'succeeded'), read('r3', 3, undefined)],
    });
    expect(at(decideById(si, hashed), 'r1').verdict).toBe('eligible');
    expect(at(decideById(si, hashed), 'r1').reason).toContain('the hash is of the bytes read');
  });
  it('pairs a read with its twin before a write when a later read under the same pinned label follows the write; never across the write', () => {
    // r1 and r2 show one state before c3 writes; r4 carries the same label after the write, which contradicts it.
    const view = makeView({
      items: [
        read('r1', 1, undefined, tagged),
        read('r2', 2, undefined, tagged),
        write('c3', 3, 'succeeded'),
        read('r4', 4, undefined, tagged),
      ],
    });
    const d = decideById(si, view);
    expect(at(d, 'r1').verdict).toBe('eligible');
    expect(at(d, 'r1').reason).toContain('as does r2, the latest read of that view and state before c3 wrote to');
    // The twin it rests on is the last read of its state before the write: it has none to pair with, so it stays.
    expect(at(d, 'r2').verdict).toBe('abstain');
    expect(at(d, 'r2').reason).toContain(
      'c3 (succeeded, not ordered relative to the reads) between them recorded a write',
    );
    // The other side: with the write between a read and every twin, nothing pairs it.
    const across = makeView({
      items: [
        read('r1', 1, undefined, tagged),
        write('c2', 2, 'succeeded'),
        read('r3', 3, undefined, tagged),
        read('r4', 4, undefined, tagged),
      ],
    });
    expect(at(decideById(si, across), 'r1').verdict).toBe('abstain');
    // A twin before the write whose bytes differ under a label that hashes nothing is no twin: still abstain.
    const differs = makeView({
      items: [
        read('r1', 1, undefined, tagged),
        read('r2', 2, undefined, { ...tagged, content: 'max = 9' }),
        write('c3', 3, 'succeeded'),
        read('r4', 4, undefined, tagged),
      ],
    });
    expect(at(decideById(si, differs), 'r1').verdict).toBe('abstain');
    // A failed write is no write: the latest read after it is the twin, as before.
    const failed = makeView({
      items: [
        read('r1', 1, undefined, tagged),
        read('r2', 2, undefined, tagged),
        write('c3', 3, 'failed'),
        read('r4', 4, undefined, tagged),
      ],
    });
    expect(at(decideById(si, failed), 'r1').reason).toContain(
      'as does r4, the latest read of that view and state, which',
    );
  });
});
