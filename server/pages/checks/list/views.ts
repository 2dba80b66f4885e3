/** The data of the checks list's template (kit/views.ts says how `PageViews` is shared). */
import type { ChannelDoc } from '../../../../shared/models/channel.js';
import type { CAN } from '../../../../shared/services/members.js';
import type { ProjectPageView } from '../../kit/views.js';
import type { LIST_SORTS, LIST_STATUSES, ListQuery } from './list-query.js';
import type { Row } from './list-find.js';
import type { Chip, Counts } from './list-counts.js';
import type { KindIcon } from '../../kit/kind-icons.js';

/** views/checks.eta: one page of a project's checks, the filter bar's counts and chips, and helpers for the links. */
export interface ChecksView extends ProjectPageView {
  can: typeof CAN;
  rows: Row[];
  /** Checks in the project, and those the query keeps. */
  total: number;
  matched: number;
  /** The number of the page's first row, from 1. */
  first: number;
  pages: number;
  query: ListQuery;
  counts: Counts;
  chips: Chip[];
  /** The project's integrations: id, name and kind, with the icon of the kind. */
  channels: (ChannelDoc & { icon: KindIcon })[];
  statuses: typeof LIST_STATUSES;
  sorts: typeof LIST_SORTS;
  /** The query string of this view with `change` applied. */
  search: (change: Partial<ListQuery>) => string;
  pingUrl: (checkId: string) => string;
  /** A slug URL, or null when the project has no ping key or the check no slug. */
  slugPingUrl: (slug: string) => string | null;
  /** A UUID ping URL without the UUID, its host part, and the project's ping key ('' when none) for the slug URLs. */
  pingBase: string;
  pingHost: string;
  pingKey: string;
  /** A moment as the list's compact "2 min" before now. */
  ago: (at: Date) => string;
  /** A row's segment of the check's address (its id, or its unique key on a wall). */
  address: (row: Row) => string;
  /** Checks down now, for the title and favicon. */
  down: number;
}

declare module '../../kit/views.js' {
  interface PageViews {
    checks: ChecksView;
  }
}
