/** The wall area: a project's wall display and the links that grant a screen its view. */
import type { PageArea } from '../kit/area.js';
import { wallRouter } from './wall.js';

/** The wall area's pages. */
export const wallArea: PageArea = {
  pages: ({ options }) => [wallRouter(options)],
};
