import { expect } from 'chai';
import { connect } from 'node:net';
import { createWebHandler } from '../../../../server/app.js';
import { listen, type HttpServer } from '../../../../server/http.js';
import { config } from '../../../../shared/config.js';
import { buildCheck, buildProject } from '../../../helpers/factories.js';
import { testContext } from '../../../helpers/hooks.js';
import { bodyBytes, onlyPing } from '../../../helpers/pings.js';

/** What a client streaming an endless body saw. */
interface Streamed {
  /** The response head and body, as text. */
  response: string;
  /** Milliseconds from the first byte sent to the end of the response. */
  elapsedMs: number;
  /** Body bytes the client managed to write before the server closed the connection. */
  sentBytes: number;
}

/** POSTs a body announced as 1 GiB, writing 64 KiB chunks until the server answers and closes, or 10 s pass. */
function streamEndlessBody(port: number, path: string): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const started = Date.now();
    let response = '';
    let sentBytes = 0;
    let open = true;
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within 10 s; ${sentBytes} bytes sent`)), 10_000);
    const pump = (): void => {
      while (open && socket.write(chunk)) sentBytes += chunk.length;
    };
    socket.on('drain', () => {
      sentBytes += chunk.length;
      pump();
    });
    socket.on('data', (data: Buffer) => (response += data.toString('latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A reset while we are still writing is the server closing on us: what was read counts.
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.on('close', () => {
      open = false;
      clearTimeout(timer);
      resolve({ response, elapsedMs: Date.now() - started, sentBytes });
    });
    socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${1024 ** 3}\r\n\r\n`);
    pump();
  });
}

describe('ANY /ping/<uuid> with a body beyond the read cap', () => {
  let server: HttpServer;
  beforeEach(async () => {
    const { redis, queues } = testContext();
    server = await listen(createWebHandler({ clock: () => new Date(), redis, queues }), 0);
  });
  afterEach(() => server.close(100));

  it('answers a body just under the read cap with 200, reading it all and keeping the connection', async () => {
    const check = await buildCheck(await buildProject());
    const res = await fetch(`http://127.0.0.1:${server.port}/ping/${check._id}`, { method: 'POST', body: Buffer.alloc(config.pingBodyReadCapBytes, 'a') });
    expect([res.status, await res.text(), res.headers.get('connection')]).to.deep.equal([200, 'OK', 'keep-alive']);
  });

  it('answers a huge body quickly with 200, stops reading at the cap and closes the connection', async () => {
    const check = await buildCheck(await buildProject());
    const streamed = await streamEndlessBody(server.port, `/ping/${check._id}`);
    expect(streamed.response).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(streamed.response).to.match(/\r\nConnection: close\r\n/i);
    expect(streamed.elapsedMs).to.be.below(3000);
    expect(streamed.sentBytes).to.be.below(64 * 1024 * 1024);
    expect(bodyBytes(await onlyPing(check._id))).to.deep.equal(Buffer.alloc(config.pingBodyLimitBytes, 'x'));
  });
});
