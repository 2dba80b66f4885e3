/**
 * Small pictures of the integration kinds for the checks list: one inline SVG `<symbol>` per family of kinds
 * (views/kind-icons.eta draws them once per page), each row's toggle a `<use>` of its kind's; kinds without a picture
 * of their own share the generic one. Drawn here, in `currentColor`, so they follow the theme.
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
