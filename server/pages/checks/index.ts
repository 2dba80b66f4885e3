/**
 * The checks area: the list (list/), a check's page with its events, charts and pings, the editor and the actions,
 * maintenance windows, the project's timeline and its badges page.
 */
import type { PageArea } from '../kit/area.js';
import { checkActionsRouter } from './check-actions.js';
import { checkListRouter } from './list/check-list.js';
import { checksRouter } from './checks.js';
import { checkPageRouter } from './check-page.js';
import { maintenanceRouter } from './maintenance.js';
import { timelineRouter } from './timeline.js';
import { badgePageRouter } from './badge-page.js';

/** The checks area's pages. */
export const checksArea: PageArea = {
  pages: ({ deps }) => [
    checkActionsRouter(deps),
    checkListRouter(deps),
    checksRouter(deps),
    checkPageRouter(deps),
    maintenanceRouter(deps),
    timelineRouter(),
    badgePageRouter(),
  ],
};
