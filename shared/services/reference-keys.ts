/**
 * The credentials a project imported from Healthchecks keeps working (docs/migrating.md, "API keys and badges"). That site
 * stores an API key as its first 8 random characters, a dot and the hex HMAC-SHA256 of the whole key under its SECRET_KEY,
 * and signs badge URLs with that secret too; so the import keeps the secret, encrypted with AES-256-GCM under a key
 * derived from our SECRET_KEY, and the key's stored form.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Project, type ProjectDoc } from '../models/project.js';
import { badgeSignature } from '../domain/badges.js';
import { config } from '../config.js';

/** A project's `reference` field as stored. */
export type ReferenceCredentials = NonNullable<ProjectDoc['reference']>;

const IV_BYTES = 12;
const TAG_BYTES = 16;

function cipherKey(ourSecret: string): Buffer {
  return createHash('sha256').update(`healthchecks-import:${ourSecret}`).digest();
}

/**
 * Encrypts the other site's SECRET_KEY for storage.
 * @returns base64url of IV, GCM tag and ciphertext.
 */
export function sealSecret(secret: string, ourSecret: string = config.secretKey): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(ourSecret), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * The other site's SECRET_KEY from its sealed form.
 * @returns null when it does not open under our secret (SECRET_KEY changed since the import).
 */
export function openSecret(sealed: string, ourSecret: string = config.secretKey): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', cipherKey(ourSecret), raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Hex HMAC-SHA256 of an API key under the other site's secret: what that site stores after the key's prefix. */
export function referenceKeyDigest(key: string, secret: string): string {
  return createHmac('sha256', secret).update(key).digest('hex');
}

/** The stored form `<8 chars>.<64 hex>` split, or null for a plain-text key (older sites) or none. */
export function splitStoredKey(stored: string): { prefix: string; digest: string } | null {
  const dot = stored.indexOf('.');
  if (dot < 0) return null;
  return { prefix: stored.slice(0, dot), digest: stored.slice(dot + 1) };
}

/**
 * The project whose imported API key is `key` (`hcw_…` read-write, `hcr_…` read-only), found by the key's prefix as that
 * site does, then compared in constant time.
 * @returns The project and whether the key is read-only, or null.
 */
export async function projectByReferenceKey(key: string): Promise<{ project: ProjectDoc; readOnly: boolean } | null> {
  const readOnly = key.startsWith('hcr_');
  if (!readOnly && !key.startsWith('hcw_')) return null;
  const prefix = key.slice(4, 12);
  const field = readOnly ? 'reference.apiKeyReadonlyPrefix' : 'reference.apiKeyPrefix';
  const candidates = await Project.find({ [field]: prefix }).lean<ProjectDoc[]>();
  for (const project of candidates) {
    const ref = project.reference;
    const stored = readOnly ? ref?.apiKeyReadonlyDigest : ref?.apiKeyDigest;
    const secret = ref && openSecret(ref.secret);
    if (!stored || !secret) continue;
    const digest = referenceKeyDigest(key, secret);
    if (digest.length === stored.length && timingSafeEqual(Buffer.from(digest), Buffer.from(stored))) return { project, readOnly };
  }
  return null;
}

/** Whether `sig` (its first 8 characters) signs `tag` under the project's imported secret, as that site's badge URLs do. */
export function referenceBadgeSignatureOk(project: Pick<ProjectDoc, 'badgeKey' | 'reference'>, tag: string, sig: string): boolean {
  const secret = project.reference && openSecret(project.reference.secret);
  return Boolean(secret) && sig.slice(0, 8) === badgeSignature(project.badgeKey, secret as string, tag);
}
