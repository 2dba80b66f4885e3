/**
 * Proxy headers believed only from the proxy, from outside over two loopback source addresses: 127.0.0.1 is the
 * proxy (listed in TRUSTED_PROXIES), 127.0.0.2 a client that reaches the web port directly. REMOTE_USER_HEADER from
 * the client is refused with 400 and logged, X-Forwarded-For from it is not believed, and the web process warns at
 * start when REMOTE_USER_HEADER is set without TRUSTED_PROXIES.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { expect } from 'chai';
import { config } from '../../shared/config.js';
import { PingJournal } from '../../shared/pings/journal.js';
import { createWebHandler } from '../../server/app.js';
import type { AppDeps } from '../../server/deps.js';
import { buildCheck, buildProject } from '../helpers/factories.js';
import { onlyPing } from '../helpers/pings.js';
import { testContext } from '../helpers/hooks.js';
import { freePort } from '../helpers/services.js';
import { killChildren, startNode, waitForOutput } from '../helpers/processes.js';
import { buildUser, webOptions } from '../helpers/web.js';

const PROXY = '127.0.0.1';
const DIRECT = '127.0.0.2';
const HEADER = 'X-Remote-User';

/** One answer: status, headers and body. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET of `path` on `port` sent from the source address `from`. */
function get(port: number, from: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress: from, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('security: proxy headers only from TRUSTED_PROXIES', () => {
  let server: Server;
  let port: number;
  before(async () => {
    const { redis, queues } = testContext();
    const proxy = { trustProxy: 1, trustedProxies: [PROXY] };
    const web = webOptions({ ...proxy, sso: { oidc: null, remoteUserHeader: HEADER.toLowerCase(), passwordSignIn: true } });
    const deps: AppDeps = { clock: () => new Date(), redis, queues, journal: new PingJournal(redis, config.queuePrefix, config.pingJournalLeaseMs), web, ...proxy };
    server = createServer(createWebHandler({ ...deps, journal: undefined }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => buildUser('frank@example.org'));

  it('refuses REMOTE_USER_HEADER from a client that is not a trusted proxy with 400, signing no one in', async () => {
    const res = await get(port, DIRECT, '/account/', { [HEADER]: 'frank@example.org' });
    expect(res.status).to.equal(400);
    expect(res.body).to.not.contain('frank@example.org');
    // The error page's session (its form token) is nobody's.
    const cookie = ((res.headers['set-cookie'] as string[] | undefined) ?? []).map((line) => line.split(';')[0]).join('; ');
    const after = await get(port, DIRECT, '/account/', cookie ? { cookie } : {});
    expect([after.status, after.headers.location]).to.deep.equal([303, '/signin/?next=%2Faccount%2F']);
  });

  it('signs in the person the trusted proxy names', async () => {
    const res = await get(port, PROXY, '/account/', { [HEADER]: 'frank@example.org' });
    expect(res.status).to.equal(200);
    expect(res.body).to.contain('frank@example.org');
  });

  it('believes X-Forwarded-For of the trusted proxy only', async () => {
    const project = await buildProject();
    const direct = await buildCheck(project);
    const proxied = await buildCheck(project);
    expect((await get(port, DIRECT, `/ping/${direct._id}`, { 'X-Forwarded-For': '198.51.100.7', 'X-Forwarded-Proto': 'https' })).status).to.equal(200);
    expect((await get(port, PROXY, `/ping/${proxied._id}`, { 'X-Forwarded-For': '198.51.100.7', 'X-Forwarded-Proto': 'https' })).status).to.equal(200);
    expect(await onlyPing(direct._id)).to.include({ remoteAddr: DIRECT, scheme: 'http' });
    expect(await onlyPing(proxied._id)).to.include({ remoteAddr: '198.51.100.7', scheme: 'https' });
  });

  describe('the web process', function () {
    this.timeout(60_000);
    afterEach(killChildren);

    it('warns at start when REMOTE_USER_HEADER is set without TRUSTED_PROXIES, and logs a refused header', async () => {
      const webPort = await freePort();
      const web = startNode('server/main.js', { PORT: String(webPort), TRUST_PROXY: '1', REMOTE_USER_HEADER: HEADER });
      await waitForOutput(web, '"msg":"listening"', 45_000);
      await waitForOutput(web, 'REMOTE_USER_HEADER is set but TRUSTED_PROXIES is empty');
      expect(web.output()).to.match(/"level":40[^\n]*REMOTE_USER_HEADER is set but TRUSTED_PROXIES is empty/);
      const res = await get(webPort, DIRECT, '/account/', { [HEADER]: 'frank@example.org' });
      expect(res.status).to.equal(400);
      await waitForOutput(web, 'proxy header from an untrusted peer');
      expect(web.output()).to.contain(`"peer":"${DIRECT}"`);
      await web.stop();
    });
  });
});
