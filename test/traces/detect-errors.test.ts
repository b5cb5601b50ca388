import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/traces/build.js';
import { detectFormat } from '../../src/traces/detect.js';
import { parseTrace } from '../../src/traces/parse.js';
import { cli } from '../support/cli.js';
import { REAL, sample, tempDir } from './support.js';

const detect = (path: string) => detectFormat(parseTrace(readFileSync(path, 'utf8'), path));

describe('format detection', () => {
  it('names each format from the structure', () => {
    expect(detect(join(REAL, 'swe-agent', 'pydicom__pydicom-1458.traj'))).toBe('swe-agent');
    expect(detect(join(REAL, 'mini-swe-agent', 'pvlib__pvlib-python-1072.traj.json'))).toBe('mini-swe-agent');
    expect(detect(sample('openhands-events.json'))).toBe('openhands');
    expect(detect(sample('claude-code-session.jsonl'))).toBe('claude-code');
    expect(detect(sample('opencode-export.json'))).toBe('opencode');
  });

  it('reads any .jsonl file as JSON Lines, even a session of one record', () => {
    const dir = tempDir();
    const line = readFileSync(sample('claude-code-session.jsonl'), 'utf8').split('\n')[1]!;
    writeFileSync(join(dir, 'one.jsonl'), `${line}\n`);
    expect(detect(join(dir, 'one.jsonl'))).toBe('claude-code');
  });

  it('calls anything else unknown and says what it found', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.json'), JSON.stringify({ conversation: [], model: 'x' }));
    expect(detect(join(dir, 'notes.json'))).toBeUndefined();
    const out = join(dir, 'out');
    const r = await cli(['import', join(dir, 'notes.json'), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('notes.json: unknown trace format (a JSON object with keys conversation, model)');
    expect(r.stderr).toContain(`known formats: ${FORMATS.join(', ')}`);
    expect(r.stderr).toContain('[PL_TRACE_UNKNOWN_FORMAT]');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a --format that disagrees with the file', async () => {
    const r = await cli([
      'import',
      '--format',
      'openhands',
      sample('opencode-export.json'),
      '--out',
      join(tempDir(), 'o'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--format openhands was given but the file is a opencode record');
  });

  it('rejects an unknown --format value naming the choices', async () => {
    const r = await cli([
      'import',
      '--format',
      'autogpt',
      sample('opencode-export.json'),
      '--out',
      join(tempDir(), 'o'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`expected one of ${FORMATS.join(', ')}`);
  });
});

describe('malformed and truncated input', () => {
  it('a truncated JSON trace names the file and the byte offset where it ends, and nothing is written', async () => {
    const dir = tempDir();
    const text = readFileSync(join(REAL, 'swe-agent', 'swe-agent__test-repo-i1.traj'), 'utf8');
    const cut = text.slice(0, 5000);
    writeFileSync(join(dir, 'cut.traj'), cut);
    const out = join(dir, 'out');
    // A good file first: the bad one must stop the whole import before the good one is written.
    const r = await cli([
      'import',
      join(REAL, 'swe-agent', 'pydicom__pydicom-1458.traj'),
      join(dir, 'cut.traj'),
      '--out',
      out,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cut.traj: not valid JSON at byte ${Buffer.byteLength(cut)}`);
    expect(r.stderr).toContain('truncated');
    expect(r.stderr).toContain('nothing was written');
    expect(existsSync(out)).toBe(false);
  });

  it('a syntax error mid-file names the byte, line and column', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), '{\n  "info": {},\n  "messages": [,]\n}\n');
    const r = await cli(['import', join(dir, 'bad.json'), '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bad.json: not valid JSON at byte 31 (line 3, column 16) (Unexpected token ',');");
    expect(r.stderr).not.toContain('ssages');
  });

  it('a truncated JSONL session names the line', async () => {
    const dir = tempDir();
    const lines = readFileSync(sample('claude-code-session.jsonl'), 'utf8').trimEnd().split('\n');
    writeFileSync(join(dir, 's.jsonl'), [...lines.slice(0, 4), lines[4]!.slice(0, 60)].join('\n'));
    const out = join(dir, 'out');
    const r = await cli(['import', '--format', 'claude-code', join(dir, 's.jsonl'), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('s.jsonl: line 5 is not valid JSON');
    expect(r.stderr).toContain('the last line looks truncated');
    expect(existsSync(out)).toBe(false);
  });

  it('a record of the wrong shape names the JSON path (or line and path)', async () => {
    const dir = tempDir();
    const oc = JSON.parse(readFileSync(sample('opencode-export.json'), 'utf8')) as {
      messages: { parts: { state?: { status: unknown } }[] }[];
    };
    oc.messages[1]!.parts[3]!.state!.status = 7;
    writeFileSync(join(dir, 'oc.json'), JSON.stringify(oc));
    let r = await cli(['import', join(dir, 'oc.json'), '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('oc.json: at $.messages[1].parts[3].state.status: expected a string, found a number');

    const lines = readFileSync(sample('claude-code-session.jsonl'), 'utf8').trimEnd().split('\n');
    const rec = JSON.parse(lines[3]!) as { message: { content: { tool_use_id: string }[] } };
    rec.message.content[0]!.tool_use_id = 'toolu_nobody';
    lines[3] = JSON.stringify(rec);
    writeFileSync(join(dir, 'cc.jsonl'), `${lines.join('\n')}\n`);
    r = await cli(['import', join(dir, 'cc.jsonl'), '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'cc.jsonl: at line 4, $.message.content[0].tool_use_id: answers tool_use "toolu_nobody"',
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('a missing file and a missing --out are usage errors', async () => {
    let r = await cli(['import', 'no/such.traj', '--out', join(tempDir(), 'o')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('trace file no/such.traj does not exist');
    r = await cli(['import', sample('opencode-export.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[PL_USAGE_IMPORT_OUT]');
  });

  it('a good import writes one fixture per session and reports it', async () => {
    const out = join(tempDir(), 'out');
    const r = await cli(['import', sample('openhands-events.json'), sample('opencode-export.json'), '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['opencode.opencode-export.json', 'openhands.openhands-events.json']);
    expect(r.stdout).toContain('| openhands | openhands.openhands-events |');
  });
});
