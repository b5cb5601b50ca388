// An image an agent sent its model as a URL, as OpenAI-style chat content carries one: a data URL (the bytes inline,
// its media type in the header) or a link. Several importers read it; the block is kept by the hash of the URL as
// recorded, since that is what the model was sent.
import { sha256 } from '../fixture/canonical.js';
import type { ContentBlock } from '../fixture/schema.js';
import { objectOr, type JsonObject, type Reader } from './parse.js';

/** The block for an image sent by URL: an image where a data URL names its media type, else an `image_url` block. */
export function imageUrlBlock(url: string): ContentBlock {
  const media = /^data:([^;,]+)[;,]/.exec(url)?.[1];
  return media
    ? { type: 'image', mediaType: media, sha256: sha256(url) }
    : { type: 'other', kind: 'image_url', sha256: sha256(url) };
}

/** The URL an `image_url` content block carries, nested (`{image_url: {url}}`) or plain (`{image_url: "…"}`). */
export function imageUrlOf(r: Reader, block: JsonObject, path: readonly (string | number)[]): string {
  const nested = objectOr(block['image_url']);
  return nested
    ? r.string(nested['url'], [...path, 'image_url', 'url'])
    : r.string(block['image_url'], [...path, 'image_url']);
}
