// What a notebook cell calls to show a rendered chart. It lives beside the notebooks, not in src/, because only
// src/cli/bin.ts writes to the process's streams there. The notebook runner (scripts/notebooks.ts) turns the
// marked line this prints into an nbformat display_data output, so the SVG appears when the notebook is opened.
export const DISPLAY_MARK = '\u001eprunelab-display\u001e';

export function displaySvg(svg: string): void {
  process.stdout.write(`${DISPLAY_MARK}${Buffer.from(svg, 'utf8').toString('base64')}\n`);
}
