/** The integrations area: a project's integrations, their editor, and the confirm and unsubscribe links of mail. */
import type { PageArea } from '../kit/area.js';
import { integrationsRouter } from './integrations.js';
import { channelLinksRouter, unsubscribeRouter } from './channel-links.js';

export { allowConfirmations, mailInBackground } from './channel-links.js';

/** The integrations area: its pages, and the one-click unsubscribe a mail client posts without a session (RFC 8058). */
export const integrationsArea: PageArea = {
  pages: ({ deps, options, limits }) => [integrationsRouter(deps, options, limits), channelLinksRouter(options, deps.clock)],
  open: ({ deps, options }) => [unsubscribeRouter(options, deps.clock)],
};
