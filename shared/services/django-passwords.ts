/**
 * Passwords hashed by Django, as a Healthchecks import brings them (docs/migrating.md, "People"): `pbkdf2_sha256$…`,
 * `pbkdf2_sha1$…` and `argon2$argon2id$…` are verified at the user's first sign-in, then replaced by our argon2id hash;
 * other Django hashers (bcrypt, scrypt) and unusable passwords (`!…`) never match, and the user resets the password.
 */
import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import argon2 from 'argon2';

const pbkdf2Async = promisify(pbkdf2);

/** Whether a stored hash is Django's rather than ours (an argon2 PHC string starts with `$`). */
export function isDjangoHash(stored: string): boolean {
  return !stored.startsWith('$');
}

/** Django's PBKDF2 hashers: `<algorithm>$<iterations>$<salt>$<base64 of the derived key>`. */
async function verifyPbkdf2(stored: string, password: string): Promise<boolean> {
  const [algorithm, iterations, salt, hash] = stored.split('$');
  const digest = algorithm === 'pbkdf2_sha256' ? 'sha256' : algorithm === 'pbkdf2_sha1' ? 'sha1' : null;
  const rounds = Number(iterations);
  if (!digest || salt === undefined || hash === undefined || !Number.isSafeInteger(rounds) || rounds < 1) return false;
  const expected = Buffer.from(hash, 'base64');
  const derived = await pbkdf2Async(password, salt, rounds, expected.length, digest);
  return expected.length > 0 && timingSafeEqual(derived, expected);
}

/**
 * Checks a password against a Django hash.
 * @returns false for a wrong password, an unusable or unknown hash; never throws.
 */
export async function verifyDjangoPassword(stored: string, password: string): Promise<boolean> {
  if (stored.startsWith('pbkdf2_')) return verifyPbkdf2(stored, password);
  // Django's Argon2PasswordHasher writes `argon2` and then the PHC string argon2-cffi made.
  if (stored.startsWith('argon2$argon2')) return argon2.verify(stored.slice('argon2'.length), password).catch(() => false);
  return false;
}
