/**
 * Creating projects and their keys, and finding a project by a key. API keys follow the reference's format:
 * `hcw_` (read-write) or `hcr_` (read-only) and 28 URL-safe characters, stored as SHA-256 digests and shown only once.
 * Renaming and deleting a project is server/services/project-changes.ts.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Project, type ProjectDoc } from '../models/project.js';
import { config } from '../config.js';
import { AppError } from '../errors.js';

/** A new project and its plain keys. */
export interface NewProject {
  project: ProjectDoc;
  apiKey: string;
  apiKeyReadonly: string;
  pingKey: string;
}

/** Options of {@link createProject}. */
export interface ProjectInput {
  name: string;
  /** Pings kept per check; default from config (100). */
  pingLogLimit?: number;
  /** Checks allowed; default from config (20). */
  checkLimit?: number;
}

/** SHA-256 hex digest of an API key, as stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * The project whose read-only API key is `key` (the reference's
 * `for_api_key(key, accept_rw=False, accept_ro=True)`): looked up by the key's
 * digest, the digest then compared in constant time. A read-write key finds nothing.
 *
 * @returns null when no project has that read-only key.
 */
export async function findProjectByReadonlyKey(key: string): Promise<ProjectDoc | null> {
  const digest = hashApiKey(key);
  const project = await Project.findOne({ apiKeyReadonlyHash: digest }).lean<ProjectDoc>();
  if (!project) return null;
  return timingSafeEqual(Buffer.from(project.apiKeyReadonlyHash, 'hex'), Buffer.from(digest, 'hex')) ? project : null;
}

function randomToken(chars: number): string {
  return randomBytes(chars).toString('base64url').slice(0, chars);
}

/**
 * Creates a project with fresh keys.
 *
 * @throws the driver's error when MongoDB is unreachable.
 */
export async function createProject(input: ProjectInput): Promise<NewProject> {
  const apiKey = `hcw_${randomToken(28)}`;
  const apiKeyReadonly = `hcr_${randomToken(28)}`;
  const pingKey = randomToken(22);
  const project = await Project.create({
    _id: randomUUID(),
    name: input.name,
    apiKeyHash: hashApiKey(apiKey),
    apiKeyReadonlyHash: hashApiKey(apiKeyReadonly),
    pingKey,
    badgeKey: randomUUID(),
    pingLogLimit: input.pingLogLimit ?? config.defaultPingLogLimit,
    checkLimit: input.checkLimit ?? config.defaultCheckLimit,
    created: new Date(),
  });
  return { project: project.toObject<ProjectDoc>(), apiKey, apiKeyReadonly, pingKey };
}

/**
 * Gives a project a new ping key (22 URL-safe characters): its checks' slug ping URLs and email addresses change at
 * once and the old key no longer pings; UUID ping URLs stay.
 *
 * @returns The new ping key.
 * @throws AppError(404) `project not found: <id>`; the driver's error.
 */
export async function rotatePingKey(projectId: string): Promise<string> {
  const pingKey = randomToken(22);
  const res = await Project.updateOne({ _id: projectId }, { $set: { pingKey } });
  if (res.matchedCount === 0) throw new AppError(404, `project not found: ${projectId}`);
  return pingKey;
}
