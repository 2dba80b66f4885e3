/** The data of the docs area's templates (kit/views.ts says how `PageViews` is shared). */
import type { PageView } from '../kit/views.js';
import type { DocEntry } from './docs.js';

/** views/docs-index.eta: the docs, by name and title. */
export interface DocsIndexView extends PageView {
  docs: DocEntry[];
}

/** views/doc.eta: one doc rendered from Markdown (raw HTML off, so `html` is ours). */
export interface DocView extends PageView {
  html: string;
}

declare module '../kit/views.js' {
  interface PageViews {
    'docs-index': DocsIndexView;
    doc: DocView;
  }
}
