import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SideEffectClass } from '../../src/fixture/schema.js';
import { readShell, shellOutcome } from '../../src/traces/shell.js';

/** Command, its class, and optionally the one file it shows with its view, what it writes, whether it searches. */
const TABLE: [
  string,
  SideEffectClass,
  {
    path?: string;
    from?: number;
    to?: number;
    whole?: true;
    writes?: string[];
    search?: boolean;
    transient?: boolean;
  }?,
][] = [
  // Plain reads, with the view each shows.
  ['cat f.py', 'read-mutable', { path: 'f.py', whole: true }],
  ['cat -n src/a.ts', 'read-mutable', { path: 'src/a.ts', whole: true }],
  ["sed -n '10,20p' f.py", 'read-mutable', { path: 'f.py', from: 10, to: 20 }],
  ['sed -n 5p f.py', 'read-mutable', { path: 'f.py', from: 5, to: 5 }],
  ['head -n 40 f.py', 'read-mutable', { path: 'f.py', from: 1, to: 40 }],
  ['head -40 f.py', 'read-mutable', { path: 'f.py', from: 1, to: 40 }],
  ['head f.py', 'read-mutable', { path: 'f.py', from: 1, to: 10 }],
  ['tail -n +30 f.py', 'read-mutable', { path: 'f.py', from: 30 }],
  ['nl -ba f.py', 'read-mutable', { path: 'f.py', whole: true }],
  ['cd /repo && cat src/x.py', 'read-mutable', { path: '/repo/src/x.py', whole: true }],
  ['cd /repo; cd src && head -n 5 x.py 2>&1', 'read-mutable', { path: '/repo/src/x.py', from: 1, to: 5 }],
  ['cat f.py 2>/dev/null', 'read-mutable', { path: 'f.py', whole: true }],
  // Searches, quoting respected.
  ['grep -r "A\\|B" .', 'read-mutable', { search: true }],
  ["grep -rn 'foo|bar' src", 'read-mutable', { search: true }],
  ['grep -n "x > y" f.py', 'read-mutable', { search: true, path: 'f.py' }],
  ['rg -n "def (a|b)" --type py', 'read-mutable', { search: true }],
  ['find . -name "*.py" -type f', 'read-mutable', { search: true }],
  ['find . -name "*.py" | xargs grep -l foo', 'read-mutable', { search: true }],
  ['grep -rn foo . | head -20', 'read-mutable', { search: true }],
  ['ls -la src', 'read-mutable'],
  ['git log --oneline -5', 'read-mutable'],
  ['git diff HEAD~1 -- src', 'read-mutable'],
  ['git --no-pager show HEAD:README.md', 'read-mutable'],
  ['git status', 'read-mutable', { transient: true }],
  ['git branch -a', 'read-mutable'],
  ['wc -l f.py', 'read-mutable'],
  ["awk 'NR>=3 && NR<=9' f.py", 'read-mutable'],
  ['if [ -f a ]; then cat a; fi', 'read-mutable'],
  ['for f in a.py b.py; do head -n 3 "$f"; done', 'read-mutable'],
  ['while read l; do echo "$l"; done < files.txt', 'read-mutable'],
  ['wc -l $(find . -name "*.py")', 'read-mutable', { search: true }],
  ['diff <(sort a) <(sort b)', 'read-mutable'],
  ['echo "rm -rf /"', 'pure'],
  ["echo 'rm x' | sh", 'non-idempotent'],
  ['git checkout main', 'non-idempotent'],
  ['git branch new-feature', 'non-idempotent'],
  ['ps aux | grep python', 'read-mutable', { transient: true, search: true }],
  ['bash -c "cat a.txt"', 'read-mutable'],
  // Pure.
  ['echo hello', 'pure'],
  ["printf '%s\\n' done", 'pure'],
  // Writes.
  ['echo x > f', 'non-idempotent', { writes: ['f'] }],
  ['cat a >> log.txt', 'non-idempotent', { writes: ['log.txt'] }],
  ['(cd a; ls) > out.txt', 'non-idempotent', { writes: ['out.txt'] }],
  ["sed -i 's/a/b/' f.py", 'non-idempotent', { writes: ['f.py'] }],
  ["sed -i.bak -e 's/a/b/' f.py", 'non-idempotent', { writes: ['f.py'] }],
  ['sort -o f f', 'non-idempotent', { writes: ['f'] }],
  ['echo data | tee out.log', 'non-idempotent', { writes: ['out.log'] }],
  ['cat > new.py <<EOF\nprint(1)\nEOF', 'non-idempotent', { writes: ['new.py'] }],
  ['touch a b', 'non-idempotent', { writes: ['a', 'b'] }],
  ['cp a.py b.py', 'non-idempotent', { writes: ['b.py'] }],
  ['mv a.py b.py', 'non-idempotent', { writes: ['a.py', 'b.py'] }],
  ['python -c "print(1)"', 'non-idempotent'],
  ['pytest tests/test_x.py -q', 'non-idempotent'],
  ['pip install -e .', 'non-idempotent'],
  ['git add -A && git commit -m "fix"', 'non-idempotent'],
  ['x=$(cat a)', 'non-idempotent'],
  ['awk \'{print > "out"}\' f', 'non-idempotent'],
  ["sed -n 'w out' f", 'non-idempotent'],
  ['find . -name "*.log" -fprint out', 'non-idempotent'],
  ['case $x in a) ls;; esac', 'non-idempotent'],
  ['curl -X POST https://example.invalid/api', 'non-idempotent'],
  // Destructive.
  ['rm -rf build', 'destructive', { writes: ['build'] }],
  ['find . -delete', 'destructive', { writes: ['.'] }],
  ['find . -name "*.pyc" -exec rm {} \\;', 'destructive', { writes: ['.'] }],
  ['find src -name "*.orig" -exec rm -f {} +', 'destructive', { writes: ['src'] }],
  ['find . -name "*.py" -exec grep -l foo {} +', 'read-mutable', { search: true }],
  ['find . -type f | xargs rm -f', 'destructive'],
  ['echo $(rm -rf x)', 'destructive'],
  ['echo "$(rm -rf x)"', 'destructive'],
  ['cat <(rm -rf x)', 'destructive'],
  ['git branch -D feature', 'destructive'],
  ['git reset --hard HEAD~1', 'destructive'],
  ['git clean -fdx', 'destructive'],
  ['git checkout -- src/a.py', 'destructive'],
  ['git push --force origin main', 'destructive'],
  ['cd /tmp && rm x', 'destructive', { writes: ['/tmp/x'] }],
  ['truncate -s 0 f.log', 'destructive', { writes: ['f.log'] }],
  ['sudo rm -f /etc/x', 'destructive'],
  ['timeout 10 rm -r d', 'destructive'],
];

describe('shell commands, parsed by the shell grammar', () => {
  it(`classifies a table of ${TABLE.length} commands`, async () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
    for (const [command, cls, expect_ = {}] of TABLE) {
      const r = await readShell(command);
      expect(r.sideEffect, command).toBe(cls);
      expect(r.kind, command).toBe(cls === 'pure' || cls === 'read-mutable' ? 'read' : 'exec');
      if (expect_.path !== undefined) expect(r.path, command).toBe(expect_.path);
      if (expect_.whole) {
        expect(r.selector, command).toBeUndefined();
        expect(r.reads, command).toEqual([{ path: expect_.path, selector: { kind: 'whole' } }]);
      }
      if (expect_.from !== undefined)
        expect(r.selector, command).toEqual({
          kind: 'lines',
          from: expect_.from,
          ...(expect_.to !== undefined ? { to: expect_.to } : {}),
        });
      if (expect_.path === undefined && !expect_.search) expect(r.path, command).toBeUndefined();
      if (expect_.writes) expect([...r.writes].sort(), command).toEqual([...expect_.writes].sort());
      if (expect_.search !== undefined) expect(r.search, command).toBe(expect_.search);
      if (expect_.transient !== undefined) expect(r.transient, command).toBe(expect_.transient);
    }
  });

  it('a piped or redirected read shows another view than the file: no one path', async () => {
    for (const c of [
      'cat f.py | grep x',
      'cat f.py > g.py',
      '(cat f.py) | wc -l',
      'nl -ba f.py | sed -n 10,20p > out',
      'cat f.py | sort | head -n 3',
      'echo $(nl f.py | head -3)',
    ])
      expect((await readShell(c)).path, c).toBeUndefined();
    const piped = await readShell('cat f.py | grep x');
    expect(piped.reads).toEqual([{ path: 'f.py', selector: { kind: 'other', query: 'output piped or redirected' } }]);
  });

  it('a file cut down to lines by a pipeline of line filters shows those lines', async () => {
    const cases: [string, number, number | undefined][] = [
      ["nl -ba f.py | sed -n '10,20p'", 10, 20],
      ['cat -n f.py | head -n 40', 1, 40],
      ["sed -n '100,200p' f.py | head -n 10", 100, 109],
      ["tail -n +50 f.py | sed -n '1,5p'", 50, 54],
      ['cd /r && nl -ba f.py | sed -n 30,40p 2>&1', 30, 40],
      ['head -n 20 f.py | tail -n +5', 5, 20],
    ];
    for (const [c, from, to] of cases) {
      const r = await readShell(c);
      expect(r.path, c).toBe(c.startsWith('cd /r') ? '/r/f.py' : 'f.py');
      expect(r.selector, c).toEqual({ kind: 'lines', from, ...(to !== undefined ? { to } : {}) });
    }
    expect((await readShell('nl -ba f.py | cat')).selector).toBeUndefined();
    expect((await readShell('nl -ba f.py | cat')).path).toBe('f.py');
  });

  it('names every file a read took, each with its view, and a search with its pattern', async () => {
    const r = await readShell("grep -n 'a|b' x.py && sed -n '3,4p' y.py");
    expect(r.reads).toEqual([
      { path: 'x.py', selector: { kind: 'search', query: 'grep -n a|b x.py' } },
      { path: 'y.py', selector: { kind: 'lines', from: 3, to: 4 } },
    ]);
    expect(r.path).toBeUndefined();
  });

  it('two searches of one file with different context options are different views', async () => {
    const a = await readShell('grep -A10 "class X" f.py');
    const b = await readShell('grep -A20 "class X" f.py');
    expect(a.path).toBe('f.py');
    expect(a.selector).not.toEqual(b.selector);
    expect(a.selector).toEqual((await readShell("grep -A10 'class X' f.py")).selector);
  });

  it('a view it cannot state as lines is another view, not a whole read', async () => {
    expect((await readShell('tail -n 20 f.py')).selector).toEqual({ kind: 'other', query: 'tail -n 20 f.py' });
    expect((await readShell("sed -n '/def/,/return/p' f.py")).selector).toMatchObject({ kind: 'other' });
    expect((await readShell('head -c 100 f.py')).selector).toMatchObject({ kind: 'other' });
  });

  it('a command the parser cannot parse is non-idempotent, with the parse error recorded', async () => {
    for (const c of ['echo "unterminated', 'cat f.py )', 'if then fi']) {
      const r = await readShell(c);
      expect(r.sideEffect, c).toBe('non-idempotent');
      expect(r.kind).toBe('exec');
      expect(r.parseError, c).toBeTruthy();
    }
    expect((await readShell('cat f.py')).parseError).toBeUndefined();
  });

  it('a here-document body is data, never commands', async () => {
    expect((await readShell('cat <<EOF\nrm -rf /\nEOF')).sideEffect).toBe('read-mutable');
    expect((await readShell("python - <<'EOF'\nprint(1)\nEOF")).sideEffect).toBe('non-idempotent');
  });

  it('property: adding a destructive command anywhere in a list makes the whole command destructive', async () => {
    const readers = fc.constantFrom<string>('cat a', 'ls', 'grep -r x .', "sed -n '1,2p' f", 'git log', 'echo hi');
    await fc.assert(
      fc.asyncProperty(
        fc.array(readers, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.constantFrom(' && ', '; ', ' || ', ' | '),
        async (parts, at, sep) => {
          const reading = await readShell(parts.join(sep));
          expect(reading.kind).toBe('read');
          const withRm = [...parts];
          withRm.splice(at % (parts.length + 1), 0, 'rm -f z');
          expect((await readShell(withRm.join(sep))).sideEffect).toBe('destructive');
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('any text at all', () => {
  it('property: reading never throws, and what is not a read is never shown as one file', async () => {
    const piece = fc.constantFrom(
      'cat',
      'rm',
      'grep',
      '-n',
      'f.py',
      '"a b"',
      "'x'",
      '$(',
      ')',
      '`',
      '|',
      '&&',
      ';',
      '>',
      '<<EOF',
      '\nEOF\n',
      '(',
      '{',
      '}',
      'for',
      'do',
      'done',
      'case',
      'esac',
      '[[',
      ']]',
      '$x',
      '*',
      '\\',
      '#',
      ' ',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 10 }), async (parts) => {
        const r = await readShell(parts.join(' '));
        expect(['pure', 'read-mutable', 'non-idempotent', 'destructive']).toContain(r.sideEffect);
        if (r.kind === 'exec') expect(r.path).toBeUndefined();
        if (r.parseError) expect(r.sideEffect).toBe('non-idempotent');
      }),
      // Each reading parses with sh-syntax (tens of milliseconds): 50 strings of up to ten of these 31 pieces, beside
      // the named cases above (the table of 79 commands, the parse errors), cost a third of the 150 there were.
      { numRuns: 50 },
    );
  });
});

describe('the outcome of a shell result', () => {
  const search = {
    kind: 'read',
    search: true,
    transient: false,
    sideEffect: 'read-mutable',
    reads: [],
    writes: [],
  } as const;
  const exec = {
    kind: 'exec',
    search: false,
    transient: false,
    sideEffect: 'non-idempotent',
    reads: [],
    writes: [],
  } as const;

  it('a search that exits 1 having printed nothing is a negative result, not a failure', () => {
    expect(shellOutcome(search, 1, '')).toEqual({ status: { state: 'ok' }, negativeResult: true, running: false });
    expect(shellOutcome(search, 0, '')).toMatchObject({ negativeResult: true, status: { state: 'ok' } });
  });

  it('a search that exits 1 with output, or 2, failed; a non-search exiting 1 with no output failed', () => {
    expect(shellOutcome(search, 2, 'grep: f: No such file or directory').status).toEqual({
      state: 'error',
      errorType: 'exit-code',
      message: 'grep: f: No such file or directory',
      fields: { exitCode: '2' },
    });
    expect(shellOutcome(exec, 1, '').status).toEqual({
      state: 'error',
      errorType: 'exit-code',
      message: 'exit code 1',
      fields: { exitCode: '1' },
      synthesized: true,
    });
    expect(shellOutcome(search, 0, 'a.py:1:x').negativeResult).toBe(false);
  });

  it('a still-running command is not an error', () => {
    expect(shellOutcome(exec, -1, 'Serving on :8000')).toEqual({
      status: { state: 'ok' },
      negativeResult: false,
      running: true,
    });
    expect(shellOutcome(exec, undefined, 'log...\n[The command is still running. You may wait longer]').running).toBe(
      true,
    );
    expect(
      shellOutcome(
        exec,
        -2,
        'x\n[The command has no new output after 30 seconds. It is still running in background session "b1".]',
      ),
    ).toMatchObject({ running: true, status: { state: 'ok' } });
    expect(shellOutcome(exec, 124, 'Command timed out after 120 seconds').running).toBe(false);
  });

  it("keeps the tool's own diagnostic as the message rather than writing one", () => {
    const out =
      'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n    import erfa\nModuleNotFoundError: No module named \'erfa\'\n';
    expect(shellOutcome(exec, 1, out).status).toEqual({
      state: 'error',
      errorType: 'exit-code',
      message: "ModuleNotFoundError: No module named 'erfa'",
      fields: { exitCode: '1' },
    });
    expect(shellOutcome(exec, 127, 'bash: foo: command not found').status).toMatchObject({
      message: 'bash: foo: command not found',
    });
    expect(shellOutcome(exec, 0, 'Error: something printed but exit 0').status).toEqual({ state: 'ok' });
    expect(
      shellOutcome(exec, 1, 'collected 3 items\n\nt.py .F.\n=== 1 failed, 2 passed in 0.12s ===\n').status,
    ).toMatchObject({ message: '=== 1 failed, 2 passed in 0.12s ===' });
    expect(shellOutcome(exec, 2, 'done\n').status).toMatchObject({
      message: 'exit code 2',
      synthesized: true,
      fields: { exitCode: '2' },
    });
  });
});
