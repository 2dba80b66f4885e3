/**
 * What the check editor offers beside its fields: the project's tags for autocomplete, the time zones moment-timezone
 * knows for the zone picker, and the slug the name suggests (the rule the API's slug pings use, shared/domain/slug.ts).
 * The fields stay free text, validated by the API's schema on save.
 */
import moment from 'moment-timezone';
import { slugify } from '../../../shared/domain/slug.js';

const reading = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Every tag of the space-separated `tagLists` (a check's `tags` each), once each, in reading order ("a" before "B"). */
export function projectTags(tagLists: readonly string[]): string[] {
  const tags = new Set(tagLists.flatMap((list) => list.split(/\s+/).filter(Boolean)));
  return [...tags].sort(reading.compare);
}

/** The IANA zone names moment-timezone knows (about 600), for the zone picker's datalist. */
export function zoneNames(): string[] {
  return moment.tz.names();
}

/** The slug the name suggests, or '' when it suggests none (a name of symbols only) or the slug already is it. */
export function suggestedSlug(name: string, slug: string): string {
  const suggestion = slugify(name);
  return suggestion === slug ? '' : suggestion;
}
