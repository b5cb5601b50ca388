// Bad input, one table: every case is either a clear exit-2 error naming the file (and the item and field where
// there is one), with no stack trace and nothing written, or handled (skipped with a notice, or counted in bounded
// time). New kinds of bad input get a row here.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../../src/fixture/json.js';
import { pinFileOf } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { cli } from '../support/cli.js';
import { minimalFixture, minimalOracle } from '../support/minimal.js';
import { copyResults } from '../report/support.js';
import { studyRoot } from '../support/study.js';

type Fixture = ReturnType<typeof minimalFixture>;
type Json = Record<string, unknown>;

interface Setup {
  /** The command line after `prunelab`; OUT stands for a folder that must not exist afterwards. */
  readonly args: readonly string[];
  readonly cwd?: string;
}

interface Case {
  readonly name: string;
  readonly setup: (dir: string) => Setup;
  /** Substrings of stderr: the file, the item and field, the code. */
  readonly says: readonly string[];
}

const OUT = '<out>';
const run = (dir: string, extra: readonly string[] = []): Setup => ({
  args: ['experiment', '--fixtures', dir, '--out', OUT, '--condition', 'raw', ...extra],
});
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

/** A fixtures folder holding mini.json (text or value) and its oracle (text, value, or none). */
function folder(
  dir: string,
  fixture: unknown = minimalFixture(),
  oracle: unknown = minimalOracle(),
  name = 'mini',
): string {
  const d = join(dir, 'fx');
  mkdirSync(join(d, 'oracles'), { recursive: true });
  const text = (v: unknown) => (typeof v === 'string' || Buffer.isBuffer(v) ? v : JSON.stringify(v, null, 2));
  writeFileSync(join(d, `${name}.json`), text(fixture));
  if (oracle !== null) writeFileSync(join(d, 'oracles', `${name}.oracle.json`), text(oracle));
  return d;
}

/** A fixtures folder holding the minimal fixture (mini.json, first in file order) and b.json with its oracle. */
function pair(dir: string, second: unknown, secondOracle: unknown = oracleWith((o) => (o['fixtureId'] = 'b'))): string {
  folder(dir);
  return folder(dir, second, secondOracle, 'b');
}

/** The minimal fixture with one change. */
function fixtureWith(change: (f: Fixture) => void): Fixture {
  const f = minimalFixture();
  change(f);
  return f;
}
function oracleWith(change: (o: ReturnType<typeof minimalOracle>) => void): Json {
  const o = minimalOracle();
  change(o);
  return o;
}
const item = (f: Fixture, i: number) => f.items[i]!;
const point = (f: Fixture) => f.prunePoints[0]! as Json & { visible: Json; downstream: Json[] };

/** The fixture's text with the placeholder string "@@" replaced by raw JSON text. */
function withRaw(raw: string, place: (f: Fixture) => void): string {
  const f = minimalFixture();
  place(f);
  return JSON.stringify(f, null, 2).replace('"@@"', raw);
}
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

const FIXTURE_CASES: Case[] = [
  // The path given
  {
    name: 'a path that does not exist',
    setup: (d) => run(join(d, 'none')),
    says: ['does not exist', '[PL_FIXTURE_PATH_MISSING]'],
  },
  {
    name: 'a symbolic link that loops, as --fixtures',
    setup: (d) => {
      symlinkSync(join(d, 'loop'), join(d, 'loop'));
      return run(join(d, 'loop'));
    },
    says: ['loop is a symbolic link that loops', '[PL_FIXTURE_PATH_SPECIAL]'],
  },
  {
    name: 'a symbolic link to nothing, as --fixtures',
    setup: (d) => {
      symlinkSync(join(d, 'nowhere'), join(d, 'dangling'));
      return run(join(d, 'dangling'));
    },
    says: ['dangling does not exist'],
  },
  {
    name: 'a FIFO as --fixtures',
    setup: (d) => {
      mkfifo(join(d, 'pipe'));
      return run(join(d, 'pipe'));
    },
    says: ['pipe is a FIFO (named pipe)', '[PL_FIXTURE_PATH_SPECIAL]'],
  },
  { name: '/dev/zero as --fixtures', setup: () => run('/dev/zero'), says: ['/dev/zero is a character device'] },
  {
    name: 'an empty folder',
    setup: (d) => {
      mkdirSync(join(d, 'empty'));
      return run(join(d, 'empty'));
    },
    says: ['[PL_FIXTURE_NONE]'],
  },
  {
    name: 'a folder whose only fixture name is a FIFO (must not hang)',
    setup: (d) => {
      mkdirSync(join(d, 'f'));
      mkfifo(join(d, 'f', 'x.json'));
      return run(join(d, 'f'));
    },
    says: ['skipped', 'x.json: it is a FIFO', '[PL_FIXTURE_NONE]'],
  },
  // The bytes
  { name: 'an empty file', setup: (d) => run(folder(d, '')), says: ['mini.json: not valid JSON', '[PL_FIXTURE_JSON]'] },
  { name: 'text that is not JSON', setup: (d) => run(folder(d, 'fixture: mini')), says: ['mini.json: not valid JSON'] },
  {
    name: 'truncated JSON',
    setup: (d) => run(folder(d, JSON.stringify(minimalFixture()).slice(0, 200))),
    says: ['mini.json: not valid JSON'],
  },
  {
    name: 'invalid UTF-8 in a payload',
    setup: (d) => {
      const b = Buffer.from(JSON.stringify(minimalFixture()));
      b[b.indexOf('index.ts')] = 0xff;
      return run(folder(d, b));
    },
    says: ['mini.json: not valid UTF-8 at byte', '[PL_INPUT_UTF8]'],
  },
  {
    name: 'a lone continuation byte',
    setup: (d) =>
      run(
        folder(
          d,
          Buffer.concat([Buffer.from('{"schemaVersion": 1, "id": "mi'), Buffer.from([0x80]), Buffer.from('ni"}')]),
        ),
      ),
    says: ['not valid UTF-8 at byte 30'],
  },
  {
    name: 'an overlong encoding',
    setup: (d) =>
      run(folder(d, Buffer.concat([Buffer.from('{"id": "'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]))),
    says: ['not valid UTF-8 at byte 8'],
  },
  {
    name: 'a duplicate top-level key',
    setup: (d) => run(folder(d, JSON.stringify(minimalFixture()).replace('"id":"mini"', '"id":"mini","id":"other"'))),
    says: ['mini.json: fixture, field "id": key "id" appears twice', '[PL_INPUT_DUPLICATE_KEY]'],
  },
  {
    name: 'a duplicate key in an item',
    setup: (d) => run(folder(d, JSON.stringify(minimalFixture()).replace('"id":"r1",', '"id":"r1","turn":7,'))),
    says: ['item "r1" (items[2]), field "turn": key "turn" appears twice'],
  },
  {
    name: 'a duplicate key in tool arguments',
    setup: (d) =>
      run(
        folder(
          d,
          JSON.stringify(minimalFixture()).replace(
            '"arguments":{"cmd":"ls src"},"callId":"k2"',
            '"arguments":{"cmd":"ls src","cmd":"rm -rf src"},"callId":"k2"',
          ),
        ),
      ),
    says: ['item "c2" (items[3]), field "tool.arguments.cmd": key "cmd" appears twice'],
  },
  {
    name: 'a duplicate key written with an escape',
    setup: (d) => run(folder(d, JSON.stringify(minimalFixture()).replace('"title":', '"\\u0074itle":"x","title":'))),
    says: ['key "title" appears twice'],
  },
  {
    name: 'a duplicate key in a prune point',
    setup: (d) =>
      run(
        folder(
          d,
          JSON.stringify(minimalFixture()).replace('"budgetTokens":1000', '"budgetTokens":1000,"budgetTokens":10'),
        ),
      ),
    says: ['prune point "pp1" (prunePoints[0]), field "budgetTokens"'],
  },
  {
    name: 'nesting of 2,000 levels in tool arguments',
    setup: (d) =>
      run(
        folder(
          d,
          withRaw(deep(2000), (f) => {
            (item(f, 1)['tool'] as Json)['arguments'] = { cmd: 'ls src', x: '@@' };
          }),
        ),
      ),
    says: [
      'item "c1" (items[1]), field "tool.arguments.x',
      `nested deeper than the limit of ${INPUT_LIMITS.depth}`,
      '[PL_INPUT_TOO_DEEP]',
    ],
  },
  {
    name: 'nesting of 200,000 levels in tool arguments',
    setup: (d) =>
      run(
        folder(
          d,
          withRaw(deep(200_000), (f) => {
            (item(f, 1)['tool'] as Json)['arguments'] = { x: '@@' };
          }),
        ),
      ),
    says: ['item "c1" (items[1])', 'nested deeper'],
  },
  {
    name: 'nesting of objects 5,000 deep in a flag',
    setup: (d) =>
      run(
        folder(
          d,
          withRaw(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`, (f) => {
            item(f, 0)['flags'] = '@@';
          }),
        ),
      ),
    says: ['item "u1" (items[0]), field "flags.a.a', 'nested deeper'],
  },
  {
    name: 'a document that is only nesting',
    setup: (d) => run(folder(d, deep(3000))),
    says: ['mini.json: fixture', 'nested deeper'],
  },
  {
    name: 'a payload over the string limit',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 2)['content'] = 'x'.repeat(INPUT_LIMITS.stringChars + 1);
          }),
        ),
      ),
    says: [
      'item "r1" (items[2]), field "content": a string of 16777217 characters, over the limit',
      '[PL_INPUT_STRING_TOO_LONG]',
    ],
  },
  {
    name: 'a .json.gz that is not gzip',
    setup: (d) => {
      const f = folder(d);
      writeFileSync(join(f, 'g.json.gz'), 'not gzip');
      return run(f);
    },
    says: ['g.json.gz: not a readable gzip file', '[PL_FIXTURE_GZIP]'],
  },
  {
    name: 'a truncated .json.gz',
    setup: (d) => {
      const f = folder(d);
      writeFileSync(join(f, 'g.json.gz'), gzipSync(JSON.stringify(minimalFixture())).subarray(0, 40));
      return run(f);
    },
    says: ['g.json.gz: not a readable gzip file'],
  },
  {
    name: 'a .json.gz holding a duplicate key',
    setup: (d) => {
      const f = folder(d, JSON.stringify(minimalFixture()), null, 'x');
      writeFileSync(
        join(f, 'x.json.gz'),
        gzipSync(JSON.stringify(minimalFixture()).replace('"id":"mini"', '"id":"mini","id":"mini"')),
      );
      return run(join(f, 'x.json.gz'));
    },
    says: ['x.json.gz: fixture, field "id": key "id" appears twice'],
  },
  { name: 'a top-level array', setup: (d) => run(folder(d, '[]')), says: ['mini.json', '[PL_FIXTURE_FIELD]'] },
  { name: 'a top-level null', setup: (d) => run(folder(d, 'null')), says: ['mini.json', '[PL_FIXTURE_FIELD]'] },
  { name: 'a top-level number', setup: (d) => run(folder(d, '42')), says: ['mini.json', '[PL_FIXTURE_FIELD]'] },
  // The schema
  {
    name: 'no id',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            delete f['id'];
          }),
        ),
      ),
    says: ['mini.json: fixture, field "id"'],
  },
  {
    name: 'an id that is a number',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            f['id'] = 7;
          }),
        ),
      ),
    says: ['field "id"'],
  },
  {
    name: 'an unknown top-level field',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            f['oracle'] = {};
          }),
        ),
      ),
    says: ['field "oracle"'],
  },
  {
    name: 'an item with no turn',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            delete item(f, 1)['turn'];
          }),
        ),
      ),
    says: ['item "c1" (items[1]), field "turn"'],
  },
  {
    name: 'a negative turn',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 0)['turn'] = -1;
          }),
        ),
      ),
    says: ['item "u1" (items[0]), field "turn"'],
  },
  {
    name: 'a fractional turn',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 0)['turn'] = 0.5;
          }),
        ),
      ),
    says: ['item "u1" (items[0]), field "turn"'],
  },
  {
    name: 'an unknown kind',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 0)['kind'] = 'memo';
          }),
        ),
      ),
    says: ['item "u1" (items[0]), field "kind"'],
  },
  {
    name: 'an unknown origin',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 2)['origin'] = 'tool';
          }),
        ),
      ),
    says: ['item "r1" (items[2]), field "origin"'],
  },
  {
    name: 'content that is not a string',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 2)['content'] = 42;
          }),
        ),
      ),
    says: ['item "r1" (items[2]), field "content"'],
  },
  {
    name: 'a tool result without status',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            delete item(f, 2)['status'];
          }),
        ),
      ),
    says: ['item "r1" (items[2]), field "status"'],
  },
  {
    name: 'a tool call without its tool',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            delete item(f, 1)['tool'];
          }),
        ),
      ),
    says: ['item "c1" (items[1]), field "tool"'],
  },
  {
    name: 'an undeclared tool',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            (item(f, 1)['tool'] as Json)['name'] = 'bash';
          }),
        ),
      ),
    says: ['item "c1" (items[1]), field "tool.name": tool "bash" is not declared'],
  },
  {
    name: 'an error status without error type',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 2)['status'] = { state: 'error', message: 'boom' };
          }),
        ),
      ),
    says: ['item "r1" (items[2]), field "status'],
  },
  {
    name: 'a duplicate item id',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 3)['id'] = 'c1';
          }),
        ),
      ),
    says: ['item "c1" (items[3]), field "id": duplicate item id'],
  },
  {
    name: 'two calls sharing one call id',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            (item(f, 3)['tool'] as Json)['callId'] = 'k1';
          }),
        ),
      ),
    says: ['item "c2" (items[3]), field "tool.callId": call id "k1" is already the tool-call'],
  },
  {
    name: 'items out of trajectory order',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            item(f, 3)['turn'] = 0;
          }),
        ),
      ),
    says: ['item "c2" (items[3]), field "turn"', 'trajectory order'],
  },
  {
    name: 'a prune point stamped before an item in its context',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f)['time'] = '2026-03-04T10:01:30Z';
          }),
        ),
      ),
    says: [
      'prune point "pp1" (prunePoints[0]), field "time": 2026-03-04T10:01:30Z is before item "c2" (2026-03-04T10:02:00Z), which is in its context (turn 2)',
    ],
  },
  {
    name: 'visible state naming an item after the prune point',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f).visible['pendingSteps'] = [{ id: 's1', description: 'check again', references: ['c3'] }];
          }),
        ),
      ),
    says: [
      'prune point "pp1" (prunePoints[0]), field "visible.pendingSteps[0].references": names item "c3" of turn 5, after the prune point (turn 2), which a policy cannot see yet',
    ],
  },
  {
    name: 'a prune point past the end of the trajectory',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f)['turn'] = 9;
            point(f).downstream = [];
          }),
          null,
        ),
      ),
    says: [
      'prune point "pp1" (prunePoints[0]), field "turn": turn 9 is past the end of the trajectory (turn 6: its last item is at turn 5)',
    ],
  },
  {
    name: 'a prune point past the last turn an obligation names',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f)['turn'] = 13;
            point(f).downstream[0]!['neededAtTurn'] = 12;
          }),
          null,
        ),
      ),
    says: [
      'turn 13 is past the end of the trajectory (turn 12: its last item is at turn 5, its last obligation is needed at turn 12)',
    ],
  },
  {
    name: 'a duplicate prune point id',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            f.prunePoints.push(structuredClone(f.prunePoints[0]!));
          }),
        ),
      ),
    says: ['prune point "pp1" (prunePoints[1]), field "id": duplicate prune point id'],
  },
  {
    name: 'a pin of an item that does not exist',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f).visible['pinned'] = ['zz'];
          }),
        ),
      ),
    says: ['field "visible.pinned": names item "zz"'],
  },
  {
    name: 'a protected tool that is not declared',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f).visible['protectedTools'] = ['bash'];
          }),
        ),
      ),
    says: ['field "visible.protectedTools[0]"'],
  },
  {
    name: 'a downstream obligation that is not in the future',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f).downstream[0]!['neededAtTurn'] = 1;
          }),
        ),
      ),
    says: ['field "downstream[0].neededAtTurn"'],
  },
  {
    name: 'an obligation that needs nothing',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f).downstream[0]!['needs'] = { itemIds: [], strings: [] };
          }),
        ),
      ),
    says: ['field "downstream[0].needs"'],
  },
  {
    name: 'a duplicate obligation id',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f).downstream.push({ ...structuredClone(point(f).downstream[0]!) });
          }),
        ),
      ),
    says: ['duplicate obligation id "d1"'],
  },
  {
    name: 'a pending step naming an unknown item',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f).visible['pendingSteps'] = [{ id: 's1', description: 'deploy', references: ['zz'] }];
          }),
        ),
      ),
    says: ['visible.pendingSteps[0].references'],
  },
  {
    name: 'a negative budget',
    setup: (d) =>
      run(
        folder(
          d,
          fixtureWith((f) => {
            point(f)['budgetTokens'] = -5;
          }),
        ),
      ),
    says: ['prune point "pp1" (prunePoints[0]), field "budgetTokens"'],
  },
  // The oracle
  {
    name: 'no oracle file',
    setup: (d) => run(folder(d, minimalFixture(), null)),
    says: ['mini.json: no oracle at', '[PL_ORACLE_MISSING]'],
  },
  {
    name: 'an oracle that is not JSON',
    setup: (d) => run(folder(d, minimalFixture(), '{ oracle')),
    says: ['mini.oracle.json: not valid JSON'],
  },
  {
    name: 'an oracle with a duplicate key',
    setup: (d) =>
      run(
        folder(
          d,
          minimalFixture(),
          JSON.stringify(minimalOracle()).replace('"fixtureId":"mini"', '"fixtureId":"mini","fixtureId":"mini"'),
        ),
      ),
    says: ['mini.oracle.json: oracle, field "fixtureId": key "fixtureId" appears twice'],
  },
  {
    name: 'an oracle with invalid UTF-8',
    setup: (d) =>
      run(
        folder(
          d,
          minimalFixture(),
          Buffer.concat([Buffer.from('{"fixtureId": "'), Buffer.from([0xfe]), Buffer.from('"}')]),
        ),
      ),
    says: ['mini.oracle.json: not valid UTF-8 at byte 15'],
  },
  {
    name: 'an oracle for another fixture',
    setup: (d) =>
      run(
        folder(
          d,
          minimalFixture(),
          oracleWith((o) => {
            o['fixtureId'] = 'other';
          }),
        ),
      ),
    says: ['mini.oracle.json: oracle, field "fixtureId"'],
  },
  {
    name: 'an oracle naming an unknown prune point',
    setup: (d) =>
      run(
        folder(
          d,
          minimalFixture(),
          oracleWith((o) => {
            o.points[0]!['prunePoint'] = 'pp9';
          }),
        ),
      ),
    says: ['oracle point "pp9" (points[0]), field "prunePoint"'],
  },
  {
    name: 'an oracle naming an item not in context',
    setup: (d) =>
      run(
        folder(
          d,
          minimalFixture(),
          oracleWith((o) => {
            o.points[0]!['removable'] = ['c3'];
          }),
        ),
      ),
    says: ['oracle point "pp1" (points[0]), field "removable[0]"'],
  },
  {
    name: 'an oracle that is a FIFO (must not hang)',
    setup: (d) => {
      const f = folder(d, minimalFixture(), null);
      mkfifo(join(f, 'oracles', 'mini.oracle.json'));
      return run(f);
    },
    says: ['mini.oracle.json: is a FIFO (named pipe), not a regular file', '[PL_INPUT_NOT_REGULAR]'],
  },
  {
    name: 'an oracle that is a symbolic link that loops',
    setup: (d) => {
      const f = folder(d, minimalFixture(), null);
      symlinkSync('mini.oracle.json', join(f, 'oracles', 'mini.oracle.json'));
      return run(f);
    },
    says: ['no oracle at'],
  },
  // Several fixtures
  {
    name: 'two fixtures with one id',
    setup: (d) => {
      const f = folder(d);
      cpSync(join(f, 'mini.json'), join(f, 'b.json'));
      cpSync(join(f, 'oracles', 'mini.oracle.json'), join(f, 'oracles', 'b.oracle.json'));
      return run(f);
    },
    says: ['fixture id "mini" is also used by', '[PL_FIXTURE_DUPLICATE_ID]'],
  },
  // Several fixtures run on two threads: the thread that runs a fixture parses and checks it from the bytes read.
  {
    name: 'on two threads, a later fixture with an unknown kind',
    setup: (d) =>
      run(
        pair(
          d,
          fixtureWith((f) => {
            f['id'] = 'b';
            item(f, 0)['kind'] = 'memo';
          }),
        ),
        ['--workers', '2'],
      ),
    says: ['b.json', 'item "u1" (items[0]), field "kind"', '[PL_FIXTURE_FIELD]'],
  },
  {
    name: 'on two threads, a later fixture that is not JSON',
    setup: (d) => run(pair(d, '{"id": "b",'), ['--workers', '2']),
    says: ['b.json'],
  },
  {
    name: 'on two threads, a later fixture with no oracle',
    setup: (d) =>
      run(
        pair(
          d,
          fixtureWith((f) => {
            f['id'] = 'b';
          }),
          null,
        ),
        ['--workers', '2'],
      ),
    says: ['b.json: no oracle at', '[PL_ORACLE_MISSING]'],
  },
  {
    name: 'on two threads, an oracle for another fixture',
    setup: (d) =>
      run(
        pair(
          d,
          fixtureWith((f) => (f['id'] = 'b')),
          minimalOracle(),
        ),
        ['--workers', '2'],
      ),
    says: ['b.oracle.json', 'fixtureId'],
  },
  {
    name: 'on two threads, two fixtures with one id',
    setup: (d) => run(pair(d, minimalFixture(), minimalOracle()), ['--workers', '2']),
    says: ['fixture id "mini" is also used by', '[PL_FIXTURE_DUPLICATE_ID]'],
  },
  // The command line
  {
    name: 'an unknown option',
    setup: (d) => ({ args: ['experiment', '--fixture', folder(d), '--out', OUT] }),
    says: ['unknown option --fixture'],
  },
  { name: 'a bad --timing', setup: (d) => run(folder(d), ['--timing', 'pressure:2']), says: ['--timing'] },
  { name: 'a bad --seed', setup: (d) => run(folder(d), ['--seed', '1e3']), says: ['--seed'] },
  { name: 'a bad --placeholders', setup: (d) => run(folder(d), ['--placeholders', 'dots']), says: ['--placeholders'] },
  {
    name: 'a bad --decision-log',
    setup: (d) => run(folder(d), ['--decision-log', 'generated']),
    says: ['--decision-log', 'generated', 'committed, all'],
  },
  {
    name: 'an unknown condition',
    setup: (d) => ({ args: ['experiment', '--fixtures', folder(d), '--out', OUT, '--condition', 'ladder-9'] }),
    says: ['unknown condition "ladder-9"'],
  },
  {
    name: 'a --policy file that does not exist',
    setup: (d) => ({ args: ['experiment', '--fixtures', folder(d), '--out', OUT, '--policy', join(d, 'mine.ts')] }),
    says: ['mine.ts does not exist'],
  },
  { name: 'a positional argument', setup: (d) => ({ args: ['experiment', folder(d)] }), says: ['unexpected argument'] },
  { name: 'an unknown command', setup: () => ({ args: ['experimnet'] }), says: ['unknown command "experimnet"'] },
  // npm run ecology reads the same kinds of path
  {
    name: 'ecology of a FIFO',
    setup: (d) => {
      mkfifo(join(d, 'pipe'));
      return { args: ['ecology', join(d, 'pipe'), '--out', OUT] };
    },
    says: ['pipe is a FIFO (named pipe)', '[PL_FIXTURE_PATH_SPECIAL]'],
  },
  {
    name: 'ecology of /dev/zero',
    setup: () => ({ args: ['ecology', '/dev/zero', '--out', OUT] }),
    says: ['/dev/zero is a character device'],
  },
  {
    name: 'ecology of a folder whose only session is a FIFO (must not hang)',
    setup: (d) => {
      mkdirSync(join(d, 's'));
      mkfifo(join(d, 's', 'run.traj'));
      return { args: ['ecology', join(d, 's'), '--out', OUT] };
    },
    says: ['run.traj: it is a FIFO', '[PL_FIXTURE_NONE]'],
  },
  {
    name: '--concurrency 0',
    setup: (d) =>
      run(folder(d), ['--provider', 'openai', '--model', 'm', '--concurrency', '0', '--llm-cache', 'replay']),
    says: ['--concurrency'],
  },
];

function expectRefused(r: { code: number; stderr: string }, says: readonly string[], out: string): void {
  expect(r.code, r.stderr).toBe(2);
  for (const s of says) expect(r.stderr).toContain(s);
  expect(r.stderr).not.toContain('unexpected failure');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(existsSync(out)).toBe(false);
}

describe('bad input to npm run experiment: an exit-2 error naming file, item and field; nothing written', () => {
  it.each(FIXTURE_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-bad-'));
    const out = join(dir, 'out');
    const s = c.setup(dir);
    const r = await cli(
      s.args.map((a) => (a === OUT ? out : a)),
      s.cwd,
    );
    expectRefused(r, c.says, out);
  });
});

describe('bad results, preregistration and pins: report and experiment refuse them', () => {
  const cases: { name: string; setup: () => { args: string[]; cwd?: string; out: string }; says: string[] }[] = [
    {
      name: 'report on a folder with no results',
      setup: () => ({ args: ['report', '--results', '/no/such/results'], out: '/no/such/results/tables' }),
      says: ['no results at'],
    },
    {
      name: 'report on a manifest with a duplicate key',
      setup: () => {
        const d = copyResults();
        const m = readFileSync(join(d, 'manifest.json'), 'utf8');
        writeFileSync(join(d, 'manifest.json'), m.replace('"seed":', '"seed": 1,\n  "seed":'));
        return { args: ['report', '--results', d], out: join(d, 'tables') };
      },
      says: ['manifest.json: seed: key "seed" appears twice'],
    },
    {
      name: 'report on a summary with invalid UTF-8 (pinned as such)',
      setup: () => {
        const d = copyResults();
        const path = join(d, 'raw', 'summary.json');
        writeFileSync(
          path,
          Buffer.concat([readFileSync(path).subarray(0, 20), Buffer.from([0xff]), readFileSync(path).subarray(21)]),
        );
        return { args: ['report', '--results', d], out: join(d, 'tables') };
      },
      says: ['raw/summary.json: changed'],
    },
    {
      name: 'a preregistration with a duplicate key',
      setup: () => {
        const s = studyRoot();
        const text = readFileSync(s.path(PREREGISTRATION_FILE), 'utf8');
        writeFileSync(
          s.path(PREREGISTRATION_FILE),
          text.replace('"study": "ch10-ablation",', '"study": "ch10-ablation",\n  "study": "other",'),
        );
        return { args: ['experiment', '--out', 'out', '--condition', 'raw'], cwd: s.root, out: s.path('out') };
      },
      says: ['preregistration.json: study: key "study" appears twice'],
    },
    {
      name: 'a preregistration pin that is not one',
      setup: () => {
        const s = studyRoot();
        writeFileSync(s.path(pinFileOf(PREREGISTRATION_FILE)), 'abc  preregistration.json\n');
        return { args: ['experiment', '--out', 'out', '--condition', 'raw'], cwd: s.root, out: s.path('out') };
      },
      says: ['is not a pin of', '[PL_PREREG_PIN_INVALID]'],
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const s = c.setup();
    const r = await cli(s.args, s.cwd);
    expectRefused(r, c.says, s.out);
  });

  it('the table holds more than 60 kinds of bad input', () => {
    expect(FIXTURE_CASES.length + cases.length).toBeGreaterThan(60);
  });
});

describe('bad input that is handled: the run goes on, saying what it passed over', () => {
  it('a FIFO, a looping link and a link to nothing inside a fixtures folder are skipped with a notice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-bad-'));
    const f = folder(dir);
    mkfifo(join(f, 'pipe.json'));
    symlinkSync('loop.json', join(f, 'loop.json'));
    symlinkSync('nowhere.json', join(f, 'dangling.json'));
    symlinkSync('.', join(f, 'again'));
    mkdirSync(join(f, '.staging-4242'));
    writeFileSync(join(f, '.staging-4242', 'half.json'), '{"id": ');
    const out = join(dir, 'out');
    const r = await cli(['experiment', '--fixtures', f, '--out', out, '--condition', 'raw']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('pipe.json: it is a FIFO (named pipe)');
    expect(r.stderr).toContain('loop.json: it is a symbolic link that loops');
    expect(r.stderr).toContain('dangling.json: it is a symbolic link to nothing');
    expect(r.stderr).toContain('again: a folder already walked through another link');
    expect(r.stderr).toContain(".staging-4242: an unfinished write's staging folder");
    expect(r.stdout).toContain('1 fixtures');
  });

  it('a prune point at the turn after the last item, or before a later obligation, is within the trajectory', async () => {
    for (const [turn, needed] of [
      [6, 8],
      [10, 11],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'prunelab-bad-'));
      const f = folder(
        dir,
        fixtureWith((x) => {
          point(x)['turn'] = turn;
          // Stamped after the last item, which its context now holds.
          point(x)['time'] = '2026-03-04T10:30:00Z';
          point(x).downstream[0]!['neededAtTurn'] = needed;
        }),
      );
      const r = await cli(['experiment', '--fixtures', f, '--out', join(dir, 'out'), '--condition', 'raw']);
      expect(r.code, r.stderr).toBe(0);
    }
  });

  it('a payload of one character repeated 8 million times is counted in bounded time, in pieces', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-bad-'));
    const f = folder(
      dir,
      fixtureWith((x) => {
        item(x, 2)['content'] = 'a'.repeat(8_000_000);
        item(x, 4)['content'] = 'ab'.repeat(500_000);
      }),
    );
    const t0 = Date.now();
    const r = await cli(['experiment', '--fixtures', f, '--out', join(dir, 'out'), '--condition', 'raw', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});
