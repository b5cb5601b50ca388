// What a notebook cell calls to show a rendered chart. The notebook runner (scripts/notebooks.ts) turns the marked
// line this prints into an nbformat display_data output, so the SVG appears in the notebook when it is opened.
export const DISPLAY_MARK = '\u001eprunelab-display\u001e';

export function displaySvg(svg: string): void {
  process.stdout.write(`${DISPLAY_MARK}${Buffer.from(svg, 'utf8').toString('base64')}\n`);
}
