/**
 * Small pictures of the integration kinds, for the checks list, the check page and the integrations page: one inline
 * SVG `<symbol>` per family of kinds (views/kind-icons.eta draws them once per page that shows any), each picture a
 * `<use>` of its kind's; kinds without a picture of their own share the generic one. Stroked in `currentColor`, so
 * they follow the theme.
 */

/** The pictures of views/kind-icons.eta, by symbol id (`kind-<name>`). */
export const KIND_ICONS = ['email', 'webhook', 'slack', 'discord', 'telegram', 'bell', 'chat', 'pager', 'phone', 'shell', 'generic'] as const;
export type KindIcon = (typeof KIND_ICONS)[number];

const FAMILIES: Record<string, KindIcon> = {
  email: 'email', webhook: 'webhook', slack: 'slack', discord: 'discord', telegram: 'telegram', shell: 'shell',
  pushover: 'bell', po: 'bell', ntfy: 'bell', gotify: 'bell', pushbullet: 'bell', apprise: 'bell',
  mattermost: 'chat', msteams: 'chat', msteamsw: 'chat', googlechat: 'chat', rocketchat: 'chat', zulip: 'chat', matrix: 'chat',
  pagerduty: 'pager', pd: 'pager', opsgenie: 'pager', pagertree: 'pager', spike: 'pager', victorops: 'pager',
  sms: 'phone', whatsapp: 'phone', signal: 'phone', call: 'phone',
};

/** The picture of a channel `kind` (as stored, aliases included): its family's, or `generic`. */
export function kindIconOf(kind: string): KindIcon {
  return Object.hasOwn(FAMILIES, kind) ? FAMILIES[kind] : 'generic';
}

/** `&`, `<`, `>` and `"` as entities, for a label inside an attribute or an element. */
function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A kind's picture on its own: a 16 px `<svg role="img">` using the page's symbol of the kind's family, with `label`
 * as its accessible name and tooltip (escaped here, so the markup is safe to insert unescaped). The page must include
 * views/kind-icons.eta once.
 *
 * @param kind - A stored channel kind (`email`, `pd`, …).
 * @param label - What the picture says: the kind's or the integration's name.
 */
export function kindIconSvg(kind: string, label: string): string {
  const name = escaped(label);
  return `<svg class="kind-icon" viewBox="0 0 16 16" width="16" height="16" role="img" aria-label="${name}" focusable="false"><title>${name}</title><use href="#kind-${kindIconOf(kind)}"/></svg>`;
}
