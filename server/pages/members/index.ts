/** The members area: the projects page, a project's settings, its members and their invitations. */
import type { PageArea } from '../kit/area.js';
import { projectsRouter } from './projects.js';
import { membersRouter } from './members.js';

/** The members area's pages. */
export const membersArea: PageArea = {
  pages: ({ deps, options }) => [projectsRouter(deps.clock, deps.redis), membersRouter(options, deps.clock)],
};
