/**
 * Named API keys made in the web app (docs/api-reference.md, "API keys" format: `hcw_`/`hcr_` + 28 URL-safe characters),
 * stored as SHA-256 digests, shown in full only when created.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ApiKey, type ApiKeyDoc } from '../models/api-key.js';
import { AppError } from '../errors.js';
import { hashApiKey } from './projects.js';

/** Most characters of a key's name. */
export const MAX_KEY_NAME = 100;

/**
 * Creates a key and returns it with its plain text (never stored).
 * @throws AppError(400) for an empty or too long name.
 */
export async function createApiKey(projectId: string, name: string, readOnly: boolean, now: Date): Promise<{ doc: ApiKeyDoc; key: string }> {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_KEY_NAME) throw new AppError(400, `a key needs a name of 1 to ${MAX_KEY_NAME} characters`);
  const key = `${readOnly ? 'hcr' : 'hcw'}_${randomBytes(28).toString('base64url').slice(0, 28)}`;
  const doc = await ApiKey.create({ _id: randomUUID(), projectId, name: trimmed, readOnly, hash: hashApiKey(key), prefix: key.slice(0, 8), created: now });
  return { doc: doc.toObject<ApiKeyDoc>(), key };
}

/** The project's named keys, oldest first. */
export function apiKeysOf(projectId: string): Promise<ApiKeyDoc[]> {
  return ApiKey.find({ projectId }).sort({ created: 1 }).lean<ApiKeyDoc[]>();
}

/**
 * Revokes a key: the next request with it gets 401.
 * @throws AppError(404) when the project has no such key.
 */
export async function revokeApiKey(projectId: string, id: string): Promise<void> {
  const { deletedCount } = await ApiKey.deleteOne({ _id: id, projectId });
  if (deletedCount === 0) throw new AppError(404, 'no such API key');
}

/** The named key with this SHA-256 digest, or null. */
export function apiKeyByDigest(digest: string): Promise<ApiKeyDoc | null> {
  return ApiKey.findOne({ hash: digest }).lean<ApiKeyDoc>();
}
