/** The data of the members area's templates (kit/views.ts says how `PageViews` is shared). */
import type { CAN, Member } from '../../../shared/services/members.js';
import type { InvitationDoc } from '../../../shared/models/invitation.js';
import type { ApiKeyDoc } from '../../../shared/models/api-key.js';
import type { ListedProject } from '../kit/glance.js';
import type { PageView, ProjectPageView } from '../kit/views.js';

/** Role names as pages show them (kit/guard.ts ROLE_LABELS). */
type RoleLabels = Record<Member['role'], string>;

/** views/projects.eta: the user's projects with their counts, and the new project form's error. */
export interface ProjectsView extends PageView {
  projects: ListedProject[];
  roleLabels: RoleLabels;
  error: string;
}

/** views/settings.eta: a project's settings, its API keys, a key just made (shown once) and the error of the last form. */
export interface SettingsView extends ProjectPageView {
  can: typeof CAN;
  keys: ApiKeyDoc[];
  newKey: { name: string; key: string; readOnly: boolean } | null;
  error: string;
  /** The project's checks, shown against its `checkLimit`. */
  checkCount: number;
  /** `<BASE_URL>/projects/<id>/metrics/` when the metrics endpoint is on, else null. */
  metrics: string | null;
}

/** views/members.eta: the members, the pending invitations (managers only), an invitation just made and the last form's error. */
export interface MembersView extends ProjectPageView {
  can: typeof CAN;
  members: Member[];
  invitations: InvitationDoc[];
  /** The viewer's user id. */
  self: string | undefined;
  roleLabels: RoleLabels;
  invite: { email: string; role: string; link: string } | null;
  error: string;
}

/** views/invite.eta: an invitation link's page. */
export interface InviteView extends PageView {
  token: string;
  projectName: string;
  /** The role offered, as pages name it. */
  role: string;
}

declare module '../kit/views.js' {
  interface PageViews {
    projects: ProjectsView;
    settings: SettingsView;
    members: MembersView;
    invite: InviteView;
  }
}
