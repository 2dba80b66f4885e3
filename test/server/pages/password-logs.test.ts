/** Passwords never reach the logs of the web process, even at LOG_LEVEL=trace and on refused forms (docs/web-app.md). */
import { expect } from 'chai';
import { freePort } from '../../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../../helpers/processes.js';
import { buildUser, PASSWORD } from '../../helpers/web.js';

/** The CSRF token and the session cookie of a GET. */
async function formOf(url: string, cookie = ''): Promise<{ csrf: string; cookie: string }> {
  const res = await fetch(url, { headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? '';
  return { csrf, cookie: (res.headers.get('set-cookie') ?? cookie).split(';')[0] };
}

async function post(url: string, cookie: string, fields: Record<string, string>): Promise<Response> {
  const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
  return fetch(url, { method: 'POST', headers, body: new URLSearchParams(fields), redirect: 'manual' });
}

describe('passwords in the logs', () => {
  afterEach(killChildren);

  it('logs no password from a sign-in, a wrong one, or one with a forged CSRF token', async () => {
    await buildUser('ann@example.org');
    const port = await freePort();
    const web = startNode('server/main.js', { PORT: String(port), LOG_LEVEL: 'trace' });
    await waitForOutput(web, '"msg":"listening"');
    const origin = `http://127.0.0.1:${port}`;
    const signIn = await formOf(`${origin}/signin/`);
    expect((await post(`${origin}/signin/`, signIn.cookie, { _csrf: signIn.csrf, email: 'ann@example.org', password: 'wrong-secret-1' })).status).to.equal(400);
    expect((await post(`${origin}/signin/`, signIn.cookie, { _csrf: signIn.csrf, email: 'ann@example.org', password: PASSWORD })).status).to.equal(303);
    const forged = await post(`${origin}/signin/`, signIn.cookie, { _csrf: 'forged', email: 'ann@example.org', password: 'forged-secret-2' });
    expect(forged.status).to.equal(403);
    await web.stop();
    expect(web.output()).not.to.include(PASSWORD).and.not.include('wrong-secret-1').and.not.include('forged-secret-2');
  });
});
