/**
 * A check's ping URLs as the pages show them for copying (docs/pinging.md, "URLs"): by UUID, `<BASE_URL>/ping/<uuid>`, and
 * by slug, `<BASE_URL>/ping/<ping key>/<slug>`, when the project has a ping key and the check a slug. Shown only to
 * members who may write: a ping URL is all a ping needs, so read-only members and wall displays see neither.
 */
import { config } from '../../../../shared/config.js';

/** `<BASE_URL>/ping/<uuid>`. */
export function uuidPingUrl(checkId: string): string {
  return `${config.baseUrl}/ping/${checkId}`;
}

/** `<BASE_URL>/ping/<ping key>/<slug>`, or null when the project has no ping key or the check no slug. */
export function slugPingUrl(pingKey: string | undefined, slug: string): string | null {
  return pingKey && slug ? `${config.baseUrl}/ping/${pingKey}/${slug}` : null;
}
