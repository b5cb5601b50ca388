// Text widths from the bundled DejaVu Sans files, so chart layout (vega's legends, label limits, and the report's
// own label placement) measures text as resvg will draw it. Vega without a canvas guesses 0.8 em per character,
// which is half again too wide for most labels and too narrow for "m" and "w"; label boxes computed from that
// guess could overlap on paper while looking apart in the scenegraph.
import { readFileSync } from 'node:fs';

/** Advance widths of one font, in em, by code point; `fallback` for characters the font does not map. */
export interface FontMetrics {
  readonly advance: ReadonlyMap<number, number>;
  readonly fallback: number;
}

function table(font: Buffer, tag: string): number {
  const count = font.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    if (font.toString('latin1', at, at + 4) === tag) return font.readUInt32BE(at + 8);
  }
  throw new Error(`font has no ${tag} table`);
}

/** Glyph index per code point from the cmap's Unicode BMP subtable (format 4), which DejaVu carries. */
function glyphs(font: Buffer): Map<number, number> {
  const cmap = table(font, 'cmap');
  const subtables = font.readUInt16BE(cmap + 2);
  let sub = -1;
  for (let i = 0; i < subtables; i++) {
    const at = cmap + 4 + i * 8;
    const platform = font.readUInt16BE(at);
    const encoding = font.readUInt16BE(at + 2);
    const offset = cmap + font.readUInt32BE(at + 4);
    if (platform === 3 && encoding === 1 && font.readUInt16BE(offset) === 4) sub = offset;
  }
  if (sub < 0) throw new Error('font has no format-4 Unicode cmap');
  const segments = font.readUInt16BE(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const ranges = deltas + segments * 2;
  const map = new Map<number, number>();
  for (let s = 0; s < segments; s++) {
    const end = font.readUInt16BE(ends + s * 2);
    const start = font.readUInt16BE(starts + s * 2);
    const delta = font.readInt16BE(deltas + s * 2);
    const rangeAt = ranges + s * 2;
    const range = font.readUInt16BE(rangeAt);
    // Only the code points a chart writes (Latin, punctuation, dashes, arrows) are worth mapping.
    for (let c = start; c <= Math.min(end, 0x2fff); c++) {
      if (c === 0xffff) continue;
      let g: number;
      if (range === 0) g = (c + delta) & 0xffff;
      else {
        const raw = font.readUInt16BE(rangeAt + range + (c - start) * 2);
        g = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (g !== 0) map.set(c, g);
    }
  }
  return map;
}

export function readMetrics(file: string): FontMetrics {
  const font = readFileSync(file);
  const unitsPerEm = font.readUInt16BE(table(font, 'head') + 18);
  const metrics = font.readUInt16BE(table(font, 'hhea') + 34);
  const hmtx = table(font, 'hmtx');
  const widthOf = (g: number) => font.readUInt16BE(hmtx + Math.min(g, metrics - 1) * 4) / unitsPerEm;
  const advance = new Map<number, number>();
  for (const [c, g] of glyphs(font)) advance.set(c, widthOf(g));
  return { advance, fallback: widthOf(0) };
}

/** Width of `text` at `fontSize`, in the same units as the size. */
export function textWidth(metrics: FontMetrics, text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) em += metrics.advance.get(ch.codePointAt(0)!) ?? metrics.fallback;
  return em * fontSize;
}
