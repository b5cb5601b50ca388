// The one catalogue: every line a command prints comes from src/messages.ts (errors by PL_* code, informational
// lines from `notices`), and the informational lines keep the exact wording the commands printed before.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notices } from '../src/messages.js';

/** Words with a space beside them: prose, as opposed to a file name ('ecology.md') or a code ('PL_IO'). */
const worded = (literal: string) => /[A-Za-z]{2,}\s|\s[A-Za-z]{2,}/.test(literal);

/** The string and template literals of a call's argument text, with `${...}` interpolations taken out. */
function literals(args: string): string[] {
  let text = args;
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(/\$\{[^{}]*\}/g, '');
  }
  return [...text.matchAll(/`([^`]*)`|'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** Each output call in a file with the text of its arguments (up to the parenthesis that closes the call). */
function outputCalls(source: string): { line: number; args: string }[] {
  const out: { line: number; args: string }[] = [];
  for (const m of source.matchAll(/\b(?:io\.std(?:out|err)|process\.std(?:out|err)\.write)\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < source.length && depth > 0; i += 1) {
      if (source[i] === '(') depth += 1;
      else if (source[i] === ')') depth -= 1;
    }
    out.push({ line: source.slice(0, m.index).split('\n').length, args: source.slice(m.index + m[0].length, i - 1) });
  }
  return out;
}

describe('the message catalogue', () => {
  it('is where every command and script gets its prose: no output call in src/cli or scripts holds a worded literal', () => {
    const files = [
      ...readdirSync('src/cli').map((f) => join('src/cli', f)),
      ...readdirSync('scripts').map((f) => join('scripts', f)),
    ].filter((f) => f.endsWith('.ts'));
    const inline: string[] = [];
    let calls = 0;
    for (const file of files) {
      // notebooks.ts writes a cell marker into generated code; that is data, not a message.
      const source = readFileSync(file, 'utf8').replace(
        /code\.map\(\(\{ c, i \}\) => `process\.stdout\.write\([^\n]*/g,
        '',
      );
      for (const call of outputCalls(source)) {
        calls += 1;
        const prose = literals(call.args).filter(worded);
        if (prose.length > 0) inline.push(`${file}:${call.line}: ${prose.join(' | ')}`);
      }
    }
    expect(calls).toBeGreaterThan(20);
    expect(inline).toEqual([]);
  });

  it('catches an inline line (the scan itself works)', () => {
    const calls = outputCalls(
      "io.stdout(`wrote ${n} files to ${dir}\\n`);\nio.stdout(flags.json ? `${JSON.stringify(x)}\\n` : table(x));\nprocess.stdout.write(`ran ${name}\\n`);\nio.stdout(files.get('ecology.md'));",
    );
    expect(calls.map((c) => literals(c.args).filter(worded).length)).toEqual([1, 0, 1, 0]);
  });

  it('renders the informational lines with the wording the commands always printed', () => {
    expect(notices.noRedactWarning()).toBe(
      'prunelab: warning: --no-redact: credential-looking strings are written as recorded; do not share or commit this output\n',
    );
    expect(notices.exploratoryRun('requested with --exploratory')).toBe(
      'EXPLORATORY (requested with --exploratory): every output is stamped exploratory and cannot stand for the preregistered study\n\n',
    );
    expect(notices.modelCalls(3, 4)).toBe('model calls: 3 sent, 4 served from the cache\n');
    expect(notices.experimentCheckPassed('results', 10, 2, 3, 0)).toBe(
      'results matches a fresh regeneration (10 files, 2 conditions, 3 fixtures)\n',
    );
    expect(notices.experimentCheckPassed('results', 10, 2, 3, 5)).toBe(
      'results matches a fresh regeneration (10 files, 2 conditions, 3 fixtures; 5 compressed logs not present here, verified against their pinned sha256)\n',
    );
    expect(
      notices.fixturesGenerated(4, 'fixtures/generated', 1_250_000, 50_000, 'fixtures/MANIFEST.json', 18, 18),
    ).toBe(
      'wrote 4 fixtures and oracles to fixtures/generated (1.3 MB compressed fixtures, 0.1 MB oracles) and fixtures/MANIFEST.json (18 fixtures, 18 oracles)\n',
    );
    expect(notices.fixturesVerified('fixtures/MANIFEST.json', 17, 17, { count: 3, seed: 3 })).toBe(
      'fixtures/MANIFEST.json: 17 fixtures and 17 oracles match their hashes and the schema; the 3 generated fixtures equal a regeneration from seed 3\n',
    );
    expect(notices.fixturesVerified('m.json', 1, 1, null)).toBe(
      'm.json: 1 fixtures and 1 oracles match their hashes and the schema\n',
    );
    expect(notices.reportWritten(5, 'results/tables', 4, 'results/charts', 14, 30)).toBe(
      'wrote 5 tables to results/tables/ and 4 charts to results/charts/ (14 fixtures, 30 conditions)\n',
    );
    expect(notices.bundleWritten('out', 12)).toBe('wrote the bundle to out (12 files)\n');
    expect(notices.ecologyWritten('# E\n', 'eco', ['a.md', 'b.csv'])).toBe('# E\n\nwritten to eco/ (a.md, b.csv)\n');
    expect(notices.ecologyCheckPassed('results/ecology', 13, 4, 30)).toBe(
      'results/ecology matches a fresh regeneration (13 files, 4 traces, 30 conditions)\n',
    );
    expect(notices.ecologyRealWritten('# E\n', 'results/ecology', 13, 4, 'data/real-traces')).toBe(
      '# E\n\nwrote results/ecology/ (13 files from 4 sessions in data/real-traces/)\n',
    );
    expect(notices.generatedWritten(['a.json', 'b.json', 'c.md'], 'README.md')).toBe(
      'wrote a.json, b.json, c.md and the generated tables of README.md\n',
    );
    expect(notices.errorLine('bad', 'PL_IO')).toBe('prunelab: bad [PL_IO]\n');
  });
});
