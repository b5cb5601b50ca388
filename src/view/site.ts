// The site's files from its page models: the index of conditions (with the report's headline tables and charts),
// one page per fixture, the chapter's scene, and the shared script and stylesheet. Pure: the same inputs give the
// same bytes, and every page opens from disk (sibling files only, nothing fetched, no CDN).
import type { Summary } from '../artifacts/schema.js';
import { formatRatio } from '../report/tables.js';
import { CLIENT_SCRIPT, STYLE } from './client.js';
import { esc, page, table } from './html.js';
import type { FixturePage } from './model.js';
import { SCENE_FIXTURE, type Scene } from './scene.js';
import { ITEM_STATES, STATE_TEXT } from './states.js';

export interface HeadlineTable {
  readonly name: string;
  readonly title: string;
  readonly notes: readonly string[];
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface SiteChart {
  readonly name: string;
  readonly title: string;
  readonly caption: string;
  readonly svg: string;
}

export interface SiteInput {
  /** The results folder as the user named it. */
  readonly label: string;
  readonly exploratory: boolean;
  readonly summaries: readonly Summary[];
  readonly tables: readonly HeadlineTable[];
  readonly charts: readonly SiteChart[];
  readonly pages: readonly FixturePage[];
  /** Fixtures of the results the site has no page for, and why (the cap), for the index to say. */
  readonly leftOut: { readonly count: number; readonly why: string } | null;
  readonly scene: Scene | { readonly missing: string };
  /** The condition a fixture page opens on. */
  readonly defaultCondition: string;
}

export const STATES_DATA = ITEM_STATES.map((state) => ({ state, ...STATE_TEXT[state] }));

/** A fixture's page; ids may hold ':', which some file systems refuse, and never '~'. */
export function fixtureFile(id: string): string {
  return `fixtures/${id.replace(/:/g, '~')}.html`;
}

/** As every report table prints a count ratio ("28/29 = 0.966", "0/0 = undefined"); an imported trace's is unscored. */
function ratio(r: { numerator: number | null; denominator: number | null }): string {
  return r.numerator === null || r.denominator === null ? 'unscored' : formatRatio(r.numerator, r.denominator);
}

function conditionsTable(summaries: readonly Summary[], first: string | undefined): string {
  return table(
    [
      'condition',
      'layer',
      'rung',
      'version',
      'KEEP',
      'PRUNE',
      'DEFER',
      'ABSTAIN',
      'true prunes / prunes',
      'false prunes / prunes',
      'raw tokens',
      'final tokens',
    ],
    summaries.map((s) => [
      s.condition,
      s.layer,
      s.rung === null ? '–' : String(s.rung),
      s.policyVersion,
      s.decisions.keep.toLocaleString('en-US'),
      s.decisions.prune.toLocaleString('en-US'),
      s.decisions.defer.toLocaleString('en-US'),
      s.decisions.abstain.toLocaleString('en-US'),
      ratio(s.precision),
      ratio(s.falsePruneRate),
      s.tokens.raw.toLocaleString('en-US'),
      s.tokens.final.toLocaleString('en-US'),
    ]),
  ).replace(
    // Each condition's name opens the first fixture page on that condition.
    /<tr><td>([^<]+)<\/td>/g,
    (all, name: string) =>
      first ? `<tr><td><a href="${esc(fixtureFile(first))}#a=${encodeURIComponent(name)}">${name}</a></td>` : all,
  );
}

function indexPage(s: SiteInput): string {
  const first = s.pages[0]?.id;
  const legend = `<ul class="legend">${STATES_DATA.map((x) => `<li class="count state-${x.state}"><span class="badge">${x.label}</span> ${esc(x.meaning)}</li>`).join('')}</ul>`;
  const tables = s.tables
    .map(
      (t) =>
        `<h3>${esc(t.title)}</h3>\n${table(t.columns, t.rows)}\n${t.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}`,
    )
    .join('\n');
  const charts = s.charts
    .map(
      (c) =>
        `<figure><img class="chart" src="charts/${esc(c.name)}.svg" alt="${esc(c.title)}"><figcaption>${esc(c.caption)}</figcaption></figure>`,
    )
    .join('\n');
  const fixtures = table(
    ['fixture', 'title', 'prune points', 'items'],
    s.pages.map((p) => [p.id, p.title, String(p.points.length), String(p.items.length)]),
  ).replace(/<tr><td>([^<]+)<\/td>/g, (_all, id: string) => `<tr><td><a href="${esc(fixtureFile(id))}">${id}</a></td>`);
  const scene =
    'snapshots' in s.scene
      ? `<p><a href="scene.html">Open the three-snapshot scene</a> (fixture ${esc(SCENE_FIXTURE)}).</p>`
      : `<p class="note">The three-snapshot scene is not drawn from these results: ${esc(s.scene.missing)}.</p>`;
  return page({
    title: `prunelab results: ${s.label}`,
    up: '',
    body: `<h1>Context Viewer: ${esc(s.label)}${s.exploratory ? ' (exploratory, not preregistered)' : ''}</h1>
<p class="note">Every page is drawn from decision records checked against the run's manifest.json. Each item in a context column carries a state, shown by colour, by a border style and by a text label:</p>
${legend}
<h2>The chapter's scene</h2>
${scene}
<h2>Conditions</h2>
${conditionsTable(s.summaries, first)}
<h2>Headline tables</h2>
${tables || '<p class="note">none</p>'}
<h2>Charts</h2>
${charts || '<p class="note">none</p>'}
<h2>Fixtures</h2>
${s.leftOut ? `<p class="note">${s.leftOut.count.toLocaleString('en-US')} more fixtures of these results have no page here: ${esc(s.leftOut.why)}.</p>` : ''}
${fixtures}
`,
  });
}

function fixturePageHtml(p: FixturePage, defaultCondition: string): string {
  return page({
    title: `${p.id}: ${p.title}`,
    up: '../',
    body: `<h1>${esc(p.id)}: ${esc(p.title)}</h1>
<p class="note">${esc(p.description)}</p>
<div id="app"><noscript>This page draws its columns with a script; open it in a browser with JavaScript on.</noscript></div>`,
    data: { kind: 'fixture', states: STATES_DATA, defaultCondition, page: p },
  });
}

function scenePage(s: SiteInput): string {
  if (!('snapshots' in s.scene))
    return page({
      title: 'The three-snapshot scene',
      up: '',
      body: `<h1>The three-snapshot scene</h1>\n<p class="note">Not drawn from these results: ${esc(s.scene.missing)}.</p>`,
    });
  const p = s.pages.find((x) => x.id === SCENE_FIXTURE)!;
  const used = new Set(s.scene.snapshots.map((x) => x.condition));
  return page({
    title: 'The three-snapshot scene',
    up: '',
    body: `<h1>The three-snapshot scene: ${esc(p.title)}</h1>
<p class="note">A constructed illustration on the canonical fixture ${esc(p.id)}, not a validated pruning pass: removal here proves nothing about safety. Follow each item across the snapshots (the line under its name): what was retained, what left the context and what stands in its place, what was protected or deferred, and what each removal's stated reason and rung actually establish. Reveal the oracle to see what the scoring knew.</p>
<p class="note">${esc(p.description)}</p>
<p><a href="${esc(fixtureFile(p.id))}">Open this fixture with any condition</a></p>
<div id="app"><noscript>This page draws its columns with a script; open it in a browser with JavaScript on.</noscript></div>`,
    data: {
      kind: 'scene',
      states: STATES_DATA,
      snapshots: s.scene.snapshots,
      page: { ...p, conditions: p.conditions.filter((c) => used.has(c.name)) },
    },
  });
}

export function siteFiles(s: SiteInput): Map<string, string> {
  const files = new Map<string, string>();
  files.set('index.html', indexPage(s));
  files.set('scene.html', scenePage(s));
  files.set('assets/app.js', CLIENT_SCRIPT);
  files.set('assets/style.css', STYLE);
  for (const c of s.charts) files.set(`charts/${c.name}.svg`, c.svg);
  for (const p of s.pages) files.set(fixtureFile(p.id), fixturePageHtml(p, s.defaultCondition));
  return files;
}
