/** The data of the account area's templates (kit/views.ts says how `PageViews` is shared). */
import type { ProjectDoc } from '../../../shared/models/project.js';
import type { MemberProject } from '../../../shared/services/members.js';
import type { WebOptions } from '../kit/options.js';
import type { PageView } from '../kit/views.js';
import type { SessionView } from './sessions.js';

/** A text field's error beside it; empty when none. */
type FieldMessage = string;

/** views/signin.eta: the sign-in form, where to go after, and which ways to sign in the site offers. */
export interface SignInView extends PageView {
  registrationOpen: boolean;
  sso: WebOptions['sso'];
  email: string;
  error: FieldMessage;
  /** A path on this site to go to after signing in. */
  next?: string;
}

/** views/signup.eta: the sign-up form, or an invitation's (its address fixed). */
export interface SignUpView extends PageView {
  email: string;
  error: FieldMessage;
  invited: boolean;
  /** The invitation's token, when signing up through one. */
  invite?: string;
}

/** views/mail-request.eta: asking for a password reset or a sign-in link by mail, and whether it was sent. */
export interface MailRequestView extends PageView {
  kind: 'reset' | 'link';
  purpose: string;
  intro: string;
  button: string;
  subject: string;
  paragraphs: readonly string[];
  label: string;
  email: string;
  error: FieldMessage;
  sent: boolean;
}

/** views/reset.eta: setting a new password from a mailed link. */
export interface ResetView extends PageView {
  token: string;
  email: string;
  error: FieldMessage;
}

/** views/account.eta: the account page: sessions, projects, and the errors of its forms (each beside its own). */
export interface AccountView extends PageView {
  sessions: SessionView[];
  projects: MemberProject[];
  roleLabels: Record<MemberProject['role'], string>;
  error: FieldMessage;
  displayError?: FieldMessage;
  /** The zone as typed, shown again with `displayError`. */
  displayTz?: string;
  emailError?: FieldMessage;
  newEmail?: string;
}

/** views/account-close.eta: closing the account, refused while it is the only owner of `projects`. */
export interface AccountCloseView extends PageView {
  projects: ProjectDoc[];
  error: FieldMessage;
}

/** views/account-closed.eta: the account is gone. */
export interface AccountClosedView extends PageView {
  email: string;
}

/** views/two-factor.eta: the sign-in's second step, with the factors the user has. */
export interface TwoFactorView extends PageView {
  keys: boolean;
  apps: boolean;
  error: FieldMessage;
}

/** views/confirm.eta: the password or a factor asked again before a sensitive change. */
export interface ConfirmView extends PageView {
  next: string;
  /** Whether the user has a second factor to use instead of the password. */
  factor: boolean;
  error: FieldMessage;
}

/** views/totp-add.eta: adding an authenticator app: its secret, as text and as a QR code (SVG we drew). */
export interface TotpAddView extends PageView {
  secret: string;
  qr: string;
  name: string;
  error: FieldMessage;
}

/** views/webauthn-add.eta: adding a security key (the ceremony is static/webauthn.js). */
export interface WebauthnAddView extends PageView {
  name: string;
  error: FieldMessage;
}

/** views/recovery-codes.eta: new recovery codes, shown once. */
export interface RecoveryCodesView extends PageView {
  codes: string[];
}

/** views/sso-link.eta: linking a single sign-on identity to the account of `email`. */
export interface SsoLinkView extends PageView {
  email: string;
  error: FieldMessage;
}

declare module '../kit/views.js' {
  interface PageViews {
    signin: SignInView;
    signup: SignUpView;
    'mail-request': MailRequestView;
    reset: ResetView;
    account: AccountView;
    'account-close': AccountCloseView;
    'account-closed': AccountClosedView;
    'two-factor': TwoFactorView;
    confirm: ConfirmView;
    'totp-add': TotpAddView;
    'webauthn-add': WebauthnAddView;
    'recovery-codes': RecoveryCodesView;
    'sso-link': SsoLinkView;
  }
}
