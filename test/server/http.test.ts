import { expect } from 'chai';
import { request, Agent } from 'node:http';
import { listen, type HttpServer } from '../../server/http.js';

/** GET / on 127.0.0.1:port; resolves with the status code and body. */
function get(port: number, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('listen / HttpServer.close', () => {
  let http: HttpServer;
  let release: () => void;
  let arrived: Promise<void>;

  beforeEach(async () => {
    let onArrive: () => void = () => {};
    arrived = new Promise((resolve) => (onArrive = resolve));
    // A request held open until the test releases it: a request in flight during close.
    http = await listen((_req, res) => {
      onArrive();
      void new Promise<void>((resolve) => (release = resolve)).then(() => res.end('done'));
    }, 0);
    // Long enough that a close waiting on a kept-alive connection would hit mocha's timeout.
    http.server.keepAliveTimeout = 60_000;
  });
  afterEach(() => http.server.closeAllConnections());

  it('lets a request in flight finish before close resolves', async () => {
    const response = get(http.port);
    await arrived;
    let closed = false;
    const closing = http.close(60_000).then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).to.equal(false);
    release();
    expect(await response).to.deep.equal({ status: 200, body: 'done' });
    await closing;
  });

  it('refuses new connections once closing', async () => {
    await http.close();
    const error = await get(http.port).catch((err: NodeJS.ErrnoException) => err);
    expect(error).to.have.property('code', 'ECONNREFUSED');
  });

  it('does not wait for idle keep-alive connections', async () => {
    const agent = new Agent({ keepAlive: true });
    const response = get(http.port, agent);
    await arrived;
    release();
    await response;
    await http.close(60_000);
    expect(http.server.listening).to.equal(false);
    agent.destroy();
  });

  it('drops a request still running after the drain timeout', async () => {
    const response = get(http.port).catch((err: NodeJS.ErrnoException) => err);
    await arrived;
    await http.close(50);
    expect(await response).to.have.property('code', 'ECONNRESET');
  });
});
