/** Badge URLs and their signatures (docs/api-reference.md, "Badges"). Pure. */
import { createHash, createHmac } from 'node:crypto';

/** The six badge formats of a tag (docs/api-reference.md, "Badges"). */
export interface BadgeUrls {
  svg: string;
  svg3: string;
  json: string;
  json3: string;
  shields: string;
  shields3: string;
}

/**
 * The 8-character signature of `tag` (`*`: project-wide): unpadded URL-safe base64 of HMAC-SHA1 keyed with
 * SHA-1(project badge key + config `secretKey`), first 8 characters.
 */
export function badgeSignature(badgeKey: string, secret: string, tag: string): string {
  const key = createHash('sha1').update(badgeKey + secret).digest();
  return createHmac('sha1', key).update(tag).digest('base64url').slice(0, 8);
}

/** Python's `quote(s, safe='')`: also encodes `!'()*`, which the badge route refuses (docs/api-reference.md, "Badges"). */
function quote(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The six badge URLs of a tag; the tag is encoded twice, as the reference does (`db@dc1` → `db%2540dc1`). */
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
