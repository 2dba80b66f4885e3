/**
 * A wall display's hold on one project (docs/wall.md): a session that pasted a project's read-only API key keeps the
 * key's SHA-256 digest (never the key) and the project's id, and reads that project's checks list and check pages as
 * the `ro` role, without an account. Each request checks the digest again, so a revoked or changed key ends it at
 * once. Only GET requests of {@link WALL_PAGES} are let through; everything else is refused. A signed link
 * (`/wall/<key id>.<signature>`, {@link wallToken}) opens the same grant for a named read-only key without pasting it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ApiKey, type ApiKeyDoc } from '../../../shared/models/api-key.js';
import { Project, type ProjectDoc } from '../../../shared/models/project.js';
import { AppError } from '../../../shared/errors.js';
import { UNIQUE_KEY_RE } from './wall-checks.js';

/** What a wall's session holds. */
export interface WallGrant {
  projectId: string;
  /** SHA-256 hex digest of the read-only key that opened it. */
  digest: string;
}

declare module 'express-session' {
  interface SessionData {
    /** A wall display's grant (server/pages/kit/wall-grant.ts); absent for everyone else. */
    wall?: WallGrant;
  }
}

/** A key's project and whether the key is read-only. */
export interface KeyOwner {
  project: ProjectDoc;
  readOnly: boolean;
}

/**
 * The pages a wall shows, below `/projects/<id>/`: the checks list, its live JSON and a check's page, addressed by its
 * `unique_key` (wall-checks.ts), never its UUID. Not a check's events, log or pings: a wall shows no ping bodies.
 */
const WALL_PAGES = new RegExp(`^(checks\\.json|checks/${UNIQUE_KEY_RE.source.replace(/^\^|\$$/g, '')}/)?$`);

/**
 * The project a key's digest opens and whether it is read-only: the project's own two keys, else a named key made
 * in the web app; null when no project has it.
 */
export async function ownerOfDigest(digest: string): Promise<KeyOwner | null> {
  const own = await Project.findOne({ $or: [{ apiKeyHash: digest }, { apiKeyReadonlyHash: digest }] }).lean<ProjectDoc>();
  if (own) return { project: own, readOnly: own.apiKeyReadonlyHash === digest };
  const named = await ApiKey.findOne({ hash: digest }).lean<ApiKeyDoc>();
  const project = named ? await Project.findById(named.projectId).lean<ProjectDoc>() : null;
  return named && project ? { project, readOnly: named.readOnly } : null;
}

/**
 * Starts a new session (a new id: no fixation) holding only `grant`: a person signed in on this browser is signed out.
 * @throws the session store's error.
 */
export async function openWall(req: Request, grant: WallGrant): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err as Error) : resolve())));
  req.session.wall = grant;
  await new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err as Error) : resolve())));
}

/** Whether a wall may open this request's page: a GET of {@link WALL_PAGES} of the grant's project. */
function wallMayOpen(req: Request, projectId: string): boolean {
  const prefix = `/projects/${projectId}/`;
  return req.method === 'GET' && req.path.startsWith(prefix) && WALL_PAGES.test(req.path.slice(prefix.length));
}

/**
 * The project a wall's session may read at this request, or null when the session holds no grant for `projectId`
 * (the caller sends it to sign in). A grant whose key no longer opens the project read-only is dropped.
 * @throws AppError(403) for anything but a read of the wall's pages (writes, settings, members, integrations…);
 *   AppError(401) when the grant's key was revoked or changed.
 */
export async function wallProject(req: Request, projectId: string, need: 'read' | 'write' | 'manage'): Promise<ProjectDoc | null> {
  const grant = req.session?.wall;
  if (!grant || grant.projectId !== projectId) return null;
  const owner = await ownerOfDigest(grant.digest);
  if (!owner || !owner.readOnly || owner.project._id !== projectId) {
    delete req.session.wall;
    throw new AppError(401, 'the key of this wall display no longer works (revoked or changed): paste a read-only key again at /wall/');
  }
  if (need !== 'read' || !wallMayOpen(req, projectId)) throw new AppError(403, 'a wall display only shows the checks: sign in to change them or to see more');
  return owner.project;
}

/** HMAC-SHA256 of the project's and the read-only key's ids with SECRET_KEY, base64url. */
function signatureOf(projectId: string, keyId: string, secret: string): string {
  return createHmac('sha256', secret).update(`wall-link:${projectId}:${keyId}`).digest('base64url');
}

/** The last segment of a wall link for a named read-only key: `<key id>.<signature>`. */
export function wallToken(projectId: string, keyId: string, secret: string): string {
  return `${keyId}.${signatureOf(projectId, keyId, secret)}`;
}

/**
 * The grant a wall link opens: the named key must still exist and be read-only, and the signature match its
 * project (compared in constant time); null otherwise. Revoking the key ends every link made for it.
 */
export async function grantOfToken(token: string, secret: string): Promise<WallGrant | null> {
  const [keyId, signature, extra] = token.split('.');
  if (!keyId || !signature || extra !== undefined) return null;
  const key = await ApiKey.findById(keyId).lean<ApiKeyDoc>();
  if (!key?.readOnly) return null;
  const expected = Buffer.from(signatureOf(key.projectId, key._id, secret));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { projectId: key.projectId, digest: key.hash } : null;
}
