import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import supertest from 'supertest';
import { readPingBody, uaOf } from '../../../server/ping/request.js';
import { clientAddressOf, schemeOf } from '../../../server/proxy.js';

/** Echoes what the ping-request functions make of a real request, as JSON. */
function echo(trustProxy: number, limitBytes = 10_000, capBytes = 1_000_000) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { body, cut } = await readPingBody(req, limitBytes, capBytes);
    res.setHeader('Content-Type', 'application/json');
    if (cut) res.setHeader('Connection', 'close');
    res.end(JSON.stringify({
      remoteAddr: clientAddressOf(req, { trustProxy, trustedProxies: ['loopback'] }),
      scheme: schemeOf(req, { trustProxy, trustedProxies: ['loopback'] }),
      ua: uaOf(req),
      body: body?.toString('latin1') ?? null,
      cut,
    }));
  };
}

describe('server/ping/request', () => {
  it('ignores X-Forwarded-For and X-Forwarded-Proto when the proxy is not trusted', async () => {
    const res = await supertest(echo(0)).get('/').set('X-Forwarded-For', '1.2.3.4').set('X-Forwarded-Proto', 'https');
    expect(res.body).to.include({ remoteAddr: '127.0.0.1', scheme: 'http' });
  });

  it('believes them when the proxy is trusted', async () => {
    const res = await supertest(echo(1)).get('/').set('X-Forwarded-For', '1.2.3.4').set('X-Forwarded-Proto', 'https');
    expect(res.body).to.include({ remoteAddr: '1.2.3.4', scheme: 'https' });
  });

  it('takes the entry the outermost trusted proxy added, never one further left that a client wrote', async () => {
    const forged = '198.51.100.7, 203.0.113.9, 10.0.0.2';
    expect((await supertest(echo(1)).get('/').set('X-Forwarded-For', forged)).body.remoteAddr).to.equal('10.0.0.2');
    expect((await supertest(echo(2)).get('/').set('X-Forwarded-For', forged)).body.remoteAddr).to.equal('203.0.113.9');
    expect((await supertest(echo(5)).get('/').set('X-Forwarded-For', '203.0.113.9')).body.remoteAddr).to.equal('203.0.113.9');
  });

  it('falls back to the peer for an empty X-Forwarded-For', async () => {
    const res = await supertest(echo(1)).get('/').set('X-Forwarded-For', '');
    expect(res.body.remoteAddr).to.equal('127.0.0.1');
  });

  it('keeps exactly the configured number of bytes of a longer body', async () => {
    const res = await supertest(echo(1, 5)).post('/').send('abcdefghij');
    expect(res.body.body).to.equal('abcde');
  });

  it('reads a body of exactly the read cap to the end', async () => {
    const res = await supertest(echo(1, 5, 20)).post('/').send('a'.repeat(20));
    expect(res.body).to.include({ body: 'aaaaa', cut: false });
  });

  it('stops reading past the read cap, keeping the first bytes', async () => {
    const res = await supertest(echo(1, 5, 20)).post('/').send('abcdefghij'.repeat(10_000));
    expect(res.body).to.include({ body: 'abcde', cut: true });
  });

  it('gives null for an empty body and a limit of 0 bytes', async () => {
    expect((await supertest(echo(1)).post('/').send('')).body.body).to.equal(null);
    expect((await supertest(echo(1, 0)).post('/').send('abc')).body.body).to.equal(null);
  });

  it('gives "" without a User-Agent', async () => {
    const res = await supertest(echo(1)).get('/').unset('User-Agent');
    expect(res.body.ua).to.equal('');
  });
});
