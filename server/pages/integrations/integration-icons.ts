/**
 * A small icon per integration kind, drawn here as inline SVG (no image files, nothing from a CDN): kinds that work
 * alike share a shape (chat services, phone messages, pagers), and every icon carries the kind's name as its
 * accessible label and tooltip, so a reader never depends on the shape.
 */
import { formKindOf, KIND_FORMS } from './channel-kinds.js';

/** Each shape's SVG path data on a 24 × 24 grid, drawn with a 2 px stroke in the text colour. */
const SHAPES = {
  mail: 'M3 6h18v12H3z M3 7l9 6 9-6',
  hook: 'M10 14a4 4 0 0 1 0-6l2-2a4 4 0 0 1 6 6l-1 1 M14 10a4 4 0 0 1 0 6l-2 2a4 4 0 0 1-6-6l1-1',
  chat: 'M4 5h16v11H9l-5 4z M8 10h8 M8 13h5',
  send: 'M3 11l18-7-6 17-3-7z M12 14l9-10',
  bell: 'M6 17V11a6 6 0 0 1 12 0v6l2 2H4z M10 21h4',
  pager: 'M4 7h16v10H4z M7 10h10 M7 13h4 M12 3v4',
  phone: 'M7 3h10v18H7z M11 18h2',
  terminal: 'M3 5h18v14H3z M7 10l3 2-3 2 M12 15h5',
  issue: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z M12 8v5 M12 16v1',
  group: 'M9 11a3 3 0 1 0 0-6a3 3 0 1 0 0 6z M3 20a6 6 0 0 1 12 0 M16 11a3 3 0 1 0 0-6 M17 14a6 6 0 0 1 4 6',
} as const;

type Shape = keyof typeof SHAPES;

/** The shape of each kind the form knows; an alias (`pd`, `po`, `msteamsw`) takes its kind's. */
const SHAPE_OF: Record<string, Shape> = {
  email: 'mail',
  webhook: 'hook', apprise: 'hook', pagertree: 'hook', spike: 'hook', victorops: 'hook',
  slack: 'chat', discord: 'chat', mattermost: 'chat', msteams: 'chat', googlechat: 'chat', rocketchat: 'chat', zulip: 'chat', matrix: 'chat',
  telegram: 'send',
  ntfy: 'bell', gotify: 'bell', pushover: 'bell', pushbullet: 'bell',
  pagerduty: 'pager', opsgenie: 'pager',
  sms: 'phone', whatsapp: 'phone', signal: 'phone', call: 'phone',
  shell: 'terminal',
  github: 'issue', trello: 'issue',
  group: 'group',
};

/** `&`, `<`, `>` and `"` as entities, for a label inside an attribute or an element. */
function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The kind's name as people read it ("Microsoft Teams"); the stored kind itself when the form does not know it. */
export function kindLabel(kind: string): string {
  const form = formKindOf(kind);
  return form ? KIND_FORMS[form].label : kind;
}

/**
 * The kind's icon: an `<svg role="img">` 16 px square with `aria-label` and a `<title>` (the kind's name); an unknown
 * kind gets the webhook's shape. The markup is safe to insert unescaped (the label is escaped here).
 *
 * @param kind - A stored channel kind (`email`, `pd`, …).
 * @returns SVG markup.
 */
export function kindIcon(kind: string): string {
  const label = escaped(kindLabel(kind));
  const shape = SHAPES[SHAPE_OF[formKindOf(kind) ?? kind] ?? 'hook'];
  return (
    `<svg class="kind-icon" viewBox="0 0 24 24" width="16" height="16" role="img" aria-label="${label}" focusable="false">` +
    `<title>${label}</title><path d="${shape}" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>`
  );
}
