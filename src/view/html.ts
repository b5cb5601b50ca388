// The HTML every page shares: escaping, the page shell, and JSON embedded so a page's script can read it and no
// payload can close the script element it sits in.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** JSON for a `<script type="application/json">`: every `<` escaped, so "</script>" in a payload stays data. */
export function embeddedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface Shell {
  readonly title: string;
  /** From the page to the site's root folder: '' or '../'. */
  readonly up: string;
  readonly body: string;
  /** The page's data, read by the site script; absent on a page drawn entirely here. */
  readonly data?: unknown;
}

export function page(s: Shell): string {
  const script =
    s.data === undefined
      ? ''
      : `<script id="page-data" type="application/json">${embeddedJson(s.data)}</script>\n<script src="${s.up}assets/app.js"></script>\n`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(s.title)}</title>
<link rel="stylesheet" href="${s.up}assets/style.css">
</head>
<body>
<nav><a href="${s.up}index.html">Conditions and fixtures</a> · <a href="${s.up}scene.html">The three-snapshot scene</a></nav>
${s.body}
${script}</body>
</html>
`;
}

/** A table of text cells; cells that are numbers (with separators, signs, a ratio or a percentage) align right. */
export function table(
  columns: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  caption?: string,
): string {
  const numeric = (c: string | number) => typeof c === 'number' || /^[-+−]?[\d,.]+( ?%)?$/.test(c);
  const head = columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c) => `<td${numeric(c) ? ' class="num"' : ''}>${esc(typeof c === 'number' ? c.toLocaleString('en-US') : c)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table>${caption ? `<caption>${esc(caption)}</caption>` : ''}<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
}
