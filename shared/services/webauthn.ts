/**
 * Security keys and passkeys as second factors (docs/web-app.md, "Security keys and passkeys"), through \@simplewebauthn/server:
 * the relying party is the site of BASE_URL (its host name is the RP ID, its origin the only accepted origin), each
 * challenge is used once (kept in the session by the caller), and an assertion's signature counter must grow, checked
 * and stored by one write guarded on the user's keys as read, so a cloned key or a replayed assertion is refused.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { User, type UserDoc } from '../models/user.js';
import { AppError } from '../errors.js';
import { factorName, hasSecondFactor, newRecoveryCodes } from './second-factor.js';

/** The relying party: the site people sign in to. */
export interface RelyingParty {
  /** Shown by the authenticator. */
  name: string;
  /** BASE_URL's origin, `https://hc.example.org`. */
  origin: string;
}

/** The library, loaded at the first use: it would add about a second to every web process's start. */
const webauthn = () => import('@simplewebauthn/server');

/** The RP ID: the origin's host name. */
function rpIdOf(rp: RelyingParty): string {
  return new URL(rp.origin).hostname;
}

/** What the browser's `navigator.credentials.create()` needs to make a key for this user (its existing keys excluded). */
export async function registrationOptions(user: UserDoc, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rpIdOf(rp),
    userName: user.email,
    userID: new TextEncoder().encode(user._id),
    attestationType: 'none',
    excludeCredentials: user.webauthn.map((key) => ({ id: String(key._id), transports: key.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Parses a browser's JSON answer. @throws AppError(400) when it is not a JSON object. */
function answerOf<T>(text: string): T {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) return value as T;
  } catch {
    // Refused below.
  }
  throw new AppError(400, 'the security key’s answer did not arrive: try again');
}

/**
 * Adds the key the browser made for `challenge`. The first factor comes with new recovery codes.
 * @returns The recovery codes to show once (empty when the user had a factor already).
 * @throws AppError(400) for a bad name, or an answer that does not verify (another origin, challenge or RP).
 */
export async function addSecurityKey(user: UserDoc, input: { name: string; answer: string; challenge: string }, rp: RelyingParty, now: Date): Promise<string[]> {
  const name = factorName(input.name);
  const verified = await (await webauthn()).verifyRegistrationResponse({
    response: answerOf<RegistrationResponseJSON>(input.answer),
    expectedChallenge: input.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rpIdOf(rp),
    requireUserVerification: false,
  }).catch((err: unknown) => {
    throw new AppError(400, `the security key was not accepted: ${(err as Error).message}`);
  });
  if (!verified.verified) throw new AppError(400, 'the security key was not accepted');
  const { credential } = verified.registrationInfo;
  const key = { _id: credential.id, name, publicKey: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter, transports: credential.transports ?? [], created: now };
  const added = await User.updateOne({ _id: user._id, 'webauthn._id': { $ne: credential.id } }, { $push: { webauthn: key } });
  if (added.modifiedCount === 0) throw new AppError(400, 'this security key is added already');
  return hasSecondFactor(user) ? [] : newRecoveryCodes(user._id);
}

/** What `navigator.credentials.get()` needs to sign in with one of the user's keys. */
export async function authenticationOptions(user: UserDoc, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return (await webauthn()).generateAuthenticationOptions({
    rpID: rpIdOf(rp),
    allowCredentials: user.webauthn.map((key) => ({ id: String(key._id), transports: key.transports as never })),
    userVerification: 'preferred',
  });
}

/**
 * Checks an assertion of one of the user's keys for `challenge`, and stores its new counter with a write guarded on the
 * keys as read (a concurrent or replayed use of the same counter loses).
 * @returns Whether it was accepted.
 */
export async function verifySecurityKey(userId: string, answer: string, challenge: string, rp: RelyingParty): Promise<boolean> {
  const user = await User.findById(userId).lean<UserDoc>();
  let response: AuthenticationResponseJSON;
  try {
    response = answerOf<AuthenticationResponseJSON>(answer);
  } catch {
    return false;
  }
  const key = user?.webauthn.find((k) => k._id === response.id);
  if (!user || !key) return false;
  const result = await (await webauthn()).verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rpIdOf(rp),
    credential: { id: String(key._id), publicKey: Buffer.from(key.publicKey ?? '', 'base64url'), counter: key.counter ?? 0, transports: key.transports },
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) return false;
  const keys = user.webauthn.map((k) => (k._id === key._id ? { ...k, counter: result.authenticationInfo.newCounter } : k));
  const stored = await User.updateOne({ _id: userId, webauthn: user.webauthn }, { $set: { webauthn: keys } });
  return stored.modifiedCount === 1 || result.authenticationInfo.newCounter === key.counter;
}
