/**
 * A running Healthchecks (healthchecks/healthchecks from its public source, its requirements in a virtualenv, SQLite) that
 * the live test (test/live/, `npm run test:reference`) drives: HC_REFERENCE_URL is where it listens, HC_REFERENCE_DIR its
 * source (where manage.py is), HC_REFERENCE_PYTHON the virtualenv's python, HC_REFERENCE_SECRET_KEY its SECRET_KEY and
 * HC_REFERENCE_DB_NAME its SQLite file (default: the source's hc.sqlite). manage.py runs with only these settings (SECRET_KEY,
 * SITE_ROOT, DB_NAME), never with our test environment, whose names it shares.
 */
import { spawn } from 'node:child_process';

/** Where the reference is. */
export interface LiveReference {
  url: string;
  dir: string;
  python: string;
  secretKey: string;
  dbName: string | undefined;
}

/**
 * The reference named by the environment.
 * @throws Error naming the missing variables: the live test fails, it does not pass by skipping.
 */
export function liveReference(): LiveReference {
  const env = process.env;
  const missing = ['HC_REFERENCE_URL', 'HC_REFERENCE_DIR', 'HC_REFERENCE_PYTHON', 'HC_REFERENCE_SECRET_KEY'].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`the live reference test needs ${missing.join(', ')} (see docs/migrating.md, "Testing against a real Healthchecks")`);
  return { url: env.HC_REFERENCE_URL!.replace(/\/+$/, ''), dir: env.HC_REFERENCE_DIR!, python: env.HC_REFERENCE_PYTHON!, secretKey: env.HC_REFERENCE_SECRET_KEY!, dbName: env.HC_REFERENCE_DB_NAME };
}

/**
 * Runs `manage.py <args>` of the reference, on its database or on `dbName`.
 * @throws Error with its stderr when it fails or takes over two minutes.
 */
export async function manage(ref: LiveReference, args: string[], dbName = ref.dbName): Promise<string> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SECRET_KEY: ref.secretKey, SITE_ROOT: ref.url, ALLOWED_HOSTS: new URL(ref.url).hostname, ...(dbName ? { DB_NAME: dbName } : {}) };
  const child = spawn(ref.python, ['manage.py', ...args], { cwd: ref.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`manage.py ${args[0]} failed: ${stderr}`);
  return stdout;
}

/** Python for `manage.py shell -c`: a user with `password` (PBKDF2-SHA256 when `pbkdf2`), a project with keys and two channels; prints JSON. */
export function seedScript(email: string, password: string, pbkdf2: boolean): string {
  return `
import json
from django.contrib.auth.models import User
from django.contrib.auth.hashers import make_password
from hc.accounts.models import Profile, Project
from hc.api.models import Channel
u = User(username=${JSON.stringify(email.slice(0, 30))}, email=${JSON.stringify(email)}, password=make_password(${JSON.stringify(password)}${pbkdf2 ? ', hasher="pbkdf2_sha256"' : ''}))
u.save()
Profile.objects.for_user(u)
p = Project.objects.create(owner=u, name="Live " + ${JSON.stringify(email)})
p.badge_key = str(p.code)
rw = p.set_api_key(); ro = p.set_api_key_readonly(); p.set_ping_key(); p.save()
Channel.objects.create(project=p, kind="email", name="Mail", email_verified=True, value=json.dumps({"value": "ops@example.org", "up": True, "down": True}))
Channel.objects.create(project=p, kind="webhook", name="Hook", value=json.dumps({"method_down": "POST", "body_down": "down", "headers_down": {}, "url_down": "http://127.0.0.1:9/d", "method_up": "GET", "body_up": "", "headers_up": {}, "url_up": ""}))
print("SEED" + json.dumps({"code": str(p.code), "rw": rw, "ro": ro, "ping_key": p.ping_key}))
`;
}

/** Sends a request to the reference. @throws Error when it answers an error status. */
export async function refFetch(ref: LiveReference, path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${ref.url}${path}`, init);
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res;
}
