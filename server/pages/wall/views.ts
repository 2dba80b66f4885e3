/** The data of the wall area's templates (kit/views.ts says how `PageViews` is shared). */
import type { ApiKeyDoc } from '../../../shared/models/api-key.js';
import type { PageView, ProjectPageView } from '../kit/views.js';

/** views/wall.eta: the form that opens a wall display with a read-only key, and its error. */
export interface WallView extends PageView {
  error: string;
}

/** views/wall-link.eta: a read-only key's wall link. */
export interface WallLinkView extends ProjectPageView {
  key: ApiKeyDoc;
  link: string;
}

declare module '../kit/views.js' {
  interface PageViews {
    wall: WallView;
    'wall-link': WallLinkView;
  }
}
