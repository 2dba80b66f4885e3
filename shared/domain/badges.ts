/**
 * Badge URLs and their signatures (behaviour.md §3.12 rules 1–2). Pure.
 */
import { createHash, createHmac } from 'node:crypto';

/** The six badge formats of a tag (seed: Badge set). */
export interface BadgeUrls {
  svg: string;
  svg3: string;
  json: string;
  json3: string;
  shields: string;
  shields3: string;
}

/**
 * The 8-character signature of `tag`: URL-safe base64 of HMAC-SHA1 keyed with
 * SHA-1(badge key + secret), unpadded, first 8 characters.
 *
 * @param badgeKey - The project's badge key.
 * @param secret - The server secret (config `secretKey`).
 * @param tag - The tag, or `*` for the project-wide badge.
 */
export function badgeSignature(badgeKey: string, secret: string, tag: string): string {
  const key = createHash('sha1').update(badgeKey + secret).digest();
  return createHmac('sha1', key).update(tag).digest('base64url').slice(0, 8);
}

/**
 * Percent-encodes with no safe characters, as Python's `quote(s, safe='')`:
 * unlike `encodeURIComponent`, also `!'()*`, which the badge route refuses
 * after the path's decoding (behaviour.md §3.12 rule 2).
 */
function quote(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The six URLs of a tag's badges. The tag segment is encoded twice, as the
 * reference does (`db@dc1` → `db%2540dc1`).
 *
 * @param baseUrl - Site root without trailing slash.
 */
export function badgeUrls(baseUrl: string, badgeKey: string, secret: string, tag: string): BadgeUrls {
  const sig = badgeSignature(badgeKey, secret, tag);
  const root = `${baseUrl}/badge/${badgeKey}`;
  const url = (states: '' | '-2', fmt: string): string =>
    tag === '*'
      ? `${root}/${sig}${states}.${fmt}`
      : `${root}/${sig}${states}/${quote(quote(tag))}.${fmt}`;
  return {
    svg: url('-2', 'svg'),
    svg3: url('', 'svg'),
    json: url('-2', 'json'),
    json3: url('', 'json'),
    shields: url('-2', 'shields'),
    shields3: url('', 'shields'),
  };
}
