// The viewer as a reader meets it: a small run made here (three canonical fixtures, raw and the proposed ladder),
// the site written by the command, then opened from disk in headless Chromium (playwright-core driving the
// distribution's chromium; never a downloaded browser). One browser for the file; one screenshot per page kind goes
// to test-artifacts/view/ (git-ignored).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecisionRecord } from '../../src/artifacts/schema.js';
import { stateOf, ITEM_STATES, STATE_TEXT, type ItemState } from '../../src/view/states.js';
import { cli } from '../support/cli.js';

const FIXTURES = ['superseded-test-run', 'cache-timing-defer', 'failed-call-residue'];
const CONDITIONS = ['raw', 'ladder-0-3'];
const ARTIFACTS = 'test-artifacts/view';
const CHROMIUM = '/usr/bin/chromium';

let work: string;
let results: string;
let site: string;
let browser: BrowserContext;
let page: Page;

/** Every decision record of the run, as written. */
function records(condition: string): DecisionRecord[] {
  return readFileSync(join(results, condition, 'decisions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => DecisionRecord.parse(JSON.parse(l)));
}

function expectedCounts(condition: string, fixture: string, point: string): Record<ItemState, number> {
  const counts = Object.fromEntries(ITEM_STATES.map((s) => [s, 0])) as Record<ItemState, number>;
  for (const r of records(condition)) if (r.fixture === fixture && r.prunePoint === point) counts[stateOf(r)] += 1;
  return counts;
}

async function shown(column: string): Promise<Record<ItemState, number>> {
  const counts = Object.fromEntries(ITEM_STATES.map((s) => [s, 0])) as Record<ItemState, number>;
  for (const s of ITEM_STATES) counts[s] = await page.locator(`${column} li.item[data-state="${s}"]`).count();
  return counts;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'prunelab-view-'));
  const fixtures = join(work, 'fixtures');
  mkdirSync(join(fixtures, 'oracles'), { recursive: true });
  for (const id of FIXTURES) {
    cpSync(`fixtures/canonical/${id}.json`, join(fixtures, `${id}.json`));
    cpSync(`fixtures/canonical/oracles/${id}.oracle.json`, join(fixtures, 'oracles', `${id}.oracle.json`));
  }
  results = join(work, 'results');
  const run = await cli(['experiment', '--fixtures', fixtures, '--condition', CONDITIONS.join(','), '--out', results]);
  expect(run.code, run.stderr).toBe(0);
  const view = await cli(['view', '--results', results]);
  expect(view.stderr).toBe('');
  expect(view.code).toBe(0);
  site = join(results, 'view');
  // A fresh profile folder of its own (playwright takes it as the persistent context's, not as an argument).
  browser = await chromium.launchPersistentContext(join(work, 'chromium-profile'), {
    executablePath: CHROMIUM,
    viewport: { width: 1400, height: 1000 },
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  // Opened from disk: any request that is not a file of the site is a failure of "self-contained".
  page.on('request', (r) => {
    if (!r.url().startsWith('file://')) throw new Error(`the site fetched ${r.url()}`);
  });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const open = async (file: string, hash = '') => {
  const errors: string[] = [];
  page.removeAllListeners('pageerror');
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${pathToFileURL(join(site, file)).href}${hash}`);
  await page.waitForLoadState('load');
  return errors;
};

/** A screenshot of the viewport with `selector` at its top: the items, not only the page's head. */
async function shoot(file: string, selector: string): Promise<void> {
  await page
    .locator(selector)
    .first()
    .evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${ARTIFACTS}/${file}` });
}

describe('npm run view, read in a browser', () => {
  it('index: lists every condition and fixture, the headline tables and the charts, from disk alone', async () => {
    const errors = await open('index.html');
    expect(errors).toEqual([]);
    for (const c of CONDITIONS)
      await expect(page.locator('table a', { hasText: c }).first().isVisible()).resolves.toBe(true);
    for (const f of FIXTURES) expect(await page.locator(`a[href="fixtures/${f}.html"]`).count()).toBe(1);
    expect(await page.locator('h3').count()).toBeGreaterThanOrEqual(2);
    const charts = page.locator('img.chart');
    expect(await charts.count()).toBeGreaterThan(0);
    // Every chart image loaded (a broken image has no natural width).
    for (const w of await charts.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
      expect(w).toBeGreaterThan(0);
    await page.screenshot({ path: `${ARTIFACTS}/index.png`, fullPage: true });
  });

  it('fixture page: per prune point, the items per state equal the decision records, each with a text label', async () => {
    for (const fixture of FIXTURES) {
      const points = [
        ...new Set(
          records('ladder-0-3')
            .filter((r) => r.fixture === fixture)
            .map((r) => r.prunePoint),
        ),
      ];
      for (const condition of CONDITIONS)
        for (const point of points) {
          expect(await open(`fixtures/${fixture}.html`, `#a=${condition}&point=${point}`)).toEqual([]);
          const column = `section.column[data-condition="${condition}"][data-point="${point}"]`;
          expect(await shown(column), `${fixture} ${condition} ${point}`).toEqual(
            expectedCounts(condition, fixture, point),
          );
          // The counts a reader sees in the column head agree with the items below them.
          for (const s of ITEM_STATES)
            expect(Number(await page.locator(`${column} li.count[data-state="${s}"] .n`).textContent())).toBe(
              expectedCounts(condition, fixture, point)[s],
            );
          // Without colour: every item carries its state's word.
          const labels = await page
            .locator(`${column} li.item`)
            .evaluateAll((items) =>
              items.map((i) => [i.getAttribute('data-state'), i.querySelector('.badge')?.textContent]),
            );
          for (const [state, label] of labels) expect(label).toBe(STATE_TEXT[state as ItemState].label);
        }
    }
    await open('fixtures/superseded-test-run.html', '#a=ladder-0-3&point=pp-mid');
    await shoot('fixture.png', 'li.item[data-item="u-task"]');
  });

  it('fixture page: a removed item shows its placeholder in its place, and every decision its rung and reason', async () => {
    await open('fixtures/superseded-test-run.html', '#a=ladder-0-3&point=pp-mid');
    const pruned = records('ladder-0-3').filter(
      (r) => r.fixture === 'superseded-test-run' && r.prunePoint === 'pp-mid' && r.decision === 'PRUNE',
    );
    expect(pruned.length).toBeGreaterThan(0);
    for (const r of pruned) {
      const item = page.locator(`section.column li.item[data-item="${r.itemId}"]`);
      expect(await item.locator('pre.placeholder').textContent()).toBe(r.placeholder);
      expect(await item.locator('.decision').textContent()).toContain(`rung ${r.rung}`);
      expect(await item.locator('.reason').textContent()).toBe(r.reason);
      // The removed payload is not presented as context: it sits in a closed disclosure.
      expect(await item.locator('details.original').getAttribute('open')).toBeNull();
    }
    expect(await page.locator('details.visible').first().textContent()).toContain('ob-vis-api');
  });

  it('the toggle reveals the hidden oracle and the downstream obligations, and hides them again', async () => {
    await open('fixtures/superseded-test-run.html', '#a=ladder-0-3&point=pp-mid');
    expect(await page.locator('.oracle').count()).toBe(0);
    expect(await page.locator('.hidden-oracle').count()).toBe(0);
    await page.locator('#reveal-oracle').check();
    await page.waitForSelector('.hidden-oracle');
    const recs = records('ladder-0-3').filter((r) => r.fixture === 'superseded-test-run' && r.prunePoint === 'pp-mid');
    expect(await page.locator('li.item .oracle').count()).toBe(recs.length);
    for (const r of recs) {
      const text = await page.locator(`li.item[data-item="${r.itemId}"] .oracle`).textContent();
      expect(text).toContain(`Oracle: ${r.oracle.verdict.toUpperCase()}`);
      if (r.oracle.outcome) expect(text).toContain(r.oracle.outcome.toUpperCase());
    }
    expect(await page.locator('.hidden-oracle').textContent()).toContain('ob-jpy');
    await shoot('fixture-oracle.png', 'li.item[data-item="r-gitlog1"]');
    await page.locator('#reveal-oracle').uncheck();
    await page.waitForSelector('.hidden-oracle', { state: 'detached' });
    expect(await page.locator('.oracle').count()).toBe(0);
  });

  it('side by side: two conditions on the same prune point in two columns, each with its own counts', async () => {
    await open('fixtures/superseded-test-run.html', '#a=raw&point=pp-pr');
    await page.selectOption('#pick-b', 'ladder-0-3');
    await page.waitForSelector('.columns.pair');
    const cols = page.locator('.columns.pair > section.column');
    expect(await cols.count()).toBe(2);
    expect(
      await cols.evaluateAll((c) => c.map((x) => [x.getAttribute('data-condition'), x.getAttribute('data-point')])),
    ).toEqual([
      ['raw', 'pp-pr'],
      ['ladder-0-3', 'pp-pr'],
    ]);
    for (const c of CONDITIONS)
      expect(await shown(`section.column[data-condition="${c}"]`)).toEqual(
        expectedCounts(c, 'superseded-test-run', 'pp-pr'),
      );
    await shoot('side-by-side.png', 'section.column[data-condition="ladder-0-3"] li.item[data-item="c-R1"]');
  });

  it('the scene: three snapshots of the canonical fixture, accumulation, removal, later', async () => {
    expect(await open('scene.html')).toEqual([]);
    const cols = page.locator('.columns.scene > section.column');
    expect(
      await cols.evaluateAll((c) => c.map((x) => [x.getAttribute('data-condition'), x.getAttribute('data-point')])),
    ).toEqual([
      ['raw', 'pp-mid'],
      ['ladder-0-3', 'pp-mid'],
      ['ladder-0-3', 'pp-pr'],
    ]);
    expect(await shown('.columns.scene > section.column:nth-child(1)')).toEqual(
      expectedCounts('raw', 'superseded-test-run', 'pp-mid'),
    );
    expect(await shown('.columns.scene > section.column:nth-child(2)')).toEqual(
      expectedCounts('ladder-0-3', 'superseded-test-run', 'pp-mid'),
    );
    // The constraint record stays protected, and each item's trail follows it across the snapshots.
    const task = page.locator('.columns.scene > section.column:nth-child(2) li.item[data-item="u-task"]');
    expect(await task.getAttribute('data-state')).toBe('protected');
    expect(await task.locator('.trail').textContent()).toContain('1 RETAINED → 2 PROTECTED → 3 PROTECTED');
    await shoot('scene.png', '.columns.scene > section.column:nth-child(2) li.item[data-item="u-task"]');
  });
});

describe('npm run view, refusing bad results', () => {
  const copy = () => {
    const dir = join(work, `copy-${Math.random().toString(36).slice(2)}`);
    cpSync(results, dir, { recursive: true });
    rmSync(join(dir, 'view'), { recursive: true, force: true });
    return dir;
  };

  it('a tampered decision log: exit 2 naming the file, nothing written', async () => {
    const dir = copy();
    const file = join(dir, 'ladder-0-3', 'decisions.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"decision":"PRUNE"', '"decision":"KEEP"'));
    const r = await cli(['view', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ladder-0-3/decisions.jsonl');
    expect(existsSync(join(dir, 'view'))).toBe(false);
  });

  it('a missing decision log: exit 2 naming the file, nothing written', async () => {
    const dir = copy();
    rmSync(join(dir, 'raw', 'decisions.jsonl'));
    const r = await cli(['view', '--results', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('raw/decisions.jsonl');
    expect(existsSync(join(dir, 'view'))).toBe(false);
  });

  it('no results at all: exit 2, nothing written', async () => {
    const dir = join(work, 'nothing-here');
    const r = await cli(['view', '--results', dir]);
    expect(r.code).toBe(2);
    expect(existsSync(dir)).toBe(false);
  });

  it('a fixture changed since the run: exit 2 naming it', async () => {
    const dir = copy();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { fixtures: { file: string }[] };
    const fixture = manifest.fixtures[0]!.file;
    const before = readFileSync(fixture);
    try {
      writeFileSync(fixture, `${before.toString('utf8').trimEnd()}\n\n`);
      const r = await cli(['view', '--results', dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(fixture);
      expect(existsSync(join(dir, 'view'))).toBe(false);
    } finally {
      writeFileSync(fixture, before);
    }
  });

  it('selects fixtures by glob and conditions by name, and refuses what names nothing', async () => {
    const dir = copy();
    const ok = await cli(['view', '--results', dir, '--fixture', 'cache-*', '--condition', 'raw']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(existsSync(join(dir, 'view', 'fixtures', 'cache-timing-defer.html'))).toBe(true);
    expect(existsSync(join(dir, 'view', 'fixtures', 'superseded-test-run.html'))).toBe(false);
    expect(readFileSync(join(dir, 'view', 'scene.html'), 'utf8')).toContain('Not drawn from these results');
    const none = await cli(['view', '--results', dir, '--fixture', 'no-such-*']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no-such-*');
    const bad = await cli(['view', '--results', dir, '--condition', 'ladder-0-4']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ladder-0-4');
    const into = await cli(['view', '--results', dir, '--out', dir]);
    expect(into.code).toBe(2);
    const inCondition = await cli(['view', '--results', dir, '--out', join(dir, 'raw', 'site')]);
    expect(inCondition.code).toBe(2);
    expect(existsSync(join(dir, 'raw', 'site'))).toBe(false);
    const other = join(work, 'someone-elses');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    const elsewhere = await cli(['view', '--results', dir, '--out', other]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('not a site this command wrote');
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('mine');
  });
});
