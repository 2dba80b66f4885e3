/** The docs area: docs/*.md of the repository as pages, and their screenshots as files. */
import type { PageArea } from '../kit/area.js';
import { docsFilesRouter, docsRouter } from './docs.js';

/** The docs area: its pages, and the screenshots served as files without a session. */
export const docsArea: PageArea = {
  pages: () => [docsRouter()],
  open: () => [docsFilesRouter()],
};
