/**
 * A person signing in at the test OpenID Connect provider (oidc-provider.ts) over plain HTTP, without a browser: the
 * app's `/signin/oidc` redirect is followed at the provider, its development login and consent forms are posted with
 * the provider's cookies kept, and the provider's redirect back is handed to the app.
 */
import type supertest from 'supertest';

/** The provider's cookies: name → value (one host, so paths do not matter here). */
type Jar = Map<string, string>;

function remember(jar: Jar, res: Response): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at);
    if (/expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, pair.slice(at + 1));
  }
}

async function visit(jar: Jar, url: string, form?: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
  const init: RequestInit = { redirect: 'manual', headers };
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    Object.assign(init, { method: 'POST', body: new URLSearchParams(form).toString() });
  }
  const res = await fetch(url, init);
  remember(jar, res);
  return res;
}

/** The first form of a provider page: its absolute action and hidden fields. */
function formOf(html: string, base: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([^]*?)<\/form>/.exec(html);
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[input[1]] = input[2];
  return { action: new URL(form[1].replace(/&amp;/g, '&'), base).href, fields };
}

/**
 * Starts single sign-on on `agent`, logs in at the provider as `login` and returns the app's answer to the callback.
 * @throws Error when the provider's pages do not lead back to the app within 12 steps.
 */
export async function oidcSignIn(agent: supertest.Agent, login: string, next = '/projects/'): Promise<supertest.Response> {
  const start = await agent.get(`/signin/oidc?next=${encodeURIComponent(next)}`);
  if (start.status !== 303) throw new Error(`/signin/oidc answered ${start.status}`);
  const jar: Jar = new Map();
  let url: string = start.headers.location;
  const issuer = new URL(url).origin;
  let form: Record<string, string> | undefined;
  for (let step = 0; step < 12; step += 1) {
    if (!url.startsWith(issuer)) {
      const back = new URL(url);
      return agent.get(`${back.pathname}${back.search}`);
    }
    const res = await visit(jar, url, form);
    form = undefined;
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const page = formOf(await res.text(), url);
    if (!page) throw new Error(`the provider's page at ${url} has no form (status ${res.status})`);
    form = page.fields.prompt === 'login' ? { ...page.fields, login, password: 'anything' } : page.fields;
    url = page.action;
  }
  throw new Error('the provider did not send the browser back to the app');
}
