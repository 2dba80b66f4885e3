import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import supertest from 'supertest';
import { readPingBody, remoteAddrOf, schemeOf, uaOf } from '../../../server/ping/request.js';

/** Echoes what the ping-request functions make of a real request, as JSON. */
function echo(trustProxy: boolean, limitBytes = 10_000, capBytes = 1_000_000) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { body, cut } = await readPingBody(req, limitBytes, capBytes);
    res.setHeader('Content-Type', 'application/json');
    if (cut) res.setHeader('Connection', 'close');
    res.end(JSON.stringify({
      remoteAddr: remoteAddrOf(req, trustProxy),
      scheme: schemeOf(req, trustProxy),
      ua: uaOf(req),
      body: body?.toString('latin1') ?? null,
      cut,
    }));
  };
}

describe('server/ping/request', () => {
  it('ignores X-Forwarded-For and X-Forwarded-Proto when the proxy is not trusted', async () => {
    const res = await supertest(echo(false)).get('/').set('X-Forwarded-For', '1.2.3.4').set('X-Forwarded-Proto', 'https');
    expect(res.body).to.include({ remoteAddr: '127.0.0.1', scheme: 'http' });
  });

  it('believes them when the proxy is trusted', async () => {
    const res = await supertest(echo(true)).get('/').set('X-Forwarded-For', '1.2.3.4').set('X-Forwarded-Proto', 'https');
    expect(res.body).to.include({ remoteAddr: '1.2.3.4', scheme: 'https' });
  });

  it('falls back to the peer for an empty X-Forwarded-For', async () => {
    const res = await supertest(echo(true)).get('/').set('X-Forwarded-For', '');
    expect(res.body.remoteAddr).to.equal('127.0.0.1');
  });

  it('keeps exactly the configured number of bytes of a longer body', async () => {
    const res = await supertest(echo(true, 5)).post('/').send('abcdefghij');
    expect(res.body.body).to.equal('abcde');
  });

  it('reads a body of exactly the read cap to the end', async () => {
    const res = await supertest(echo(true, 5, 20)).post('/').send('a'.repeat(20));
    expect(res.body).to.include({ body: 'aaaaa', cut: false });
  });

  it('stops reading past the read cap, keeping the first bytes', async () => {
    const res = await supertest(echo(true, 5, 20)).post('/').send('abcdefghij'.repeat(10_000));
    expect(res.body).to.include({ body: 'abcde', cut: true });
  });

  it('gives null for an empty body and a limit of 0 bytes', async () => {
    expect((await supertest(echo(true)).post('/').send('')).body.body).to.equal(null);
    expect((await supertest(echo(true, 0)).post('/').send('abc')).body.body).to.equal(null);
  });

  it('gives "" without a User-Agent', async () => {
    const res = await supertest(echo(true)).get('/').unset('User-Agent');
    expect(res.body.ua).to.equal('');
  });
});
