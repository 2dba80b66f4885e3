/** The status pages area: a project's status pages, their editor and logo, and their incidents (the public pages are server/status/). */
import type { PageArea } from '../kit/area.js';
import { statusPagesRouter } from './status-pages.js';
import { statusIncidentsRouter } from './status-incidents.js';
import { logoUpload } from './upload.js';

/** The status pages area: its pages, and the multipart body of the logo form. */
export const statusPagesArea: PageArea = {
  body: logoUpload,
  pages: ({ deps }) => [statusPagesRouter(deps), statusIncidentsRouter(deps)],
};
