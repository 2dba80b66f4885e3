import { expect } from 'chai';
import { callProvider, type RequestContext } from '../../../shared/notify/http.js';
import { DeliveryError } from '../../../shared/notify/types.js';
import { freePort } from '../../helpers/services.js';
import { startReceiver, type Receiver, type Reply } from '../../helpers/receiver.js';

/** A delivery attempt's context with a `timeoutMs` milliseconds timeout; private targets allowed (the receiver is local). */
function attempt(timeoutMs: number): RequestContext {
  return { signal: AbortSignal.timeout(timeoutMs), config: { allowPrivateIps: true } };
}

async function failure(promise: Promise<unknown>): Promise<DeliveryError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).to.be.instanceOf(DeliveryError);
  return err as DeliveryError;
}

describe('shared/notify/http callProvider', () => {
  let receiver: Receiver;
  const start = async (reply: Reply) => (receiver = await startReceiver(() => reply));
  afterEach(() => receiver?.close());

  it('returns the answer of a 2xx', async () => {
    await start({ status: 202, body: '{"ok":true}' });
    expect(await callProvider({ url: receiver.url, json: {} }, attempt(5000))).to.equal('{"ok":true}');
  });

  it('sends a User-Agent, Accept and the body\'s type, each unless the request sets its own (in any letter case)', async () => {
    await start({ status: 200 });
    await callProvider({ url: receiver.url, body: 'plain' }, attempt(5000));
    await callProvider({ url: receiver.url, json: {}, headers: { 'User-Agent': 'mine', 'Content-Type': 'application/x-ndjson' } }, attempt(5000));
    const [plain, own] = receiver.requests.map((r) => [r.headers['user-agent'], r.headers.accept, r.headers['content-type']]);
    expect(plain).to.deep.equal(['hc-monitor', '*/*', 'text/plain;charset=UTF-8']);
    expect(own).to.deep.equal(['mine', '*/*', 'application/x-ndjson']);
  });

  it('sends the user name and password of the URL as Basic authorization, and not in the URL', async () => {
    await start({ status: 200 });
    const url = new URL(receiver.url);
    url.username = 'hook user';
    url.password = 'p@ss:word';
    url.pathname = '/hook';
    await callProvider({ url: url.toString(), json: {} }, attempt(5000));
    const [received] = receiver.requests;
    expect([received.url, received.headers.authorization]).to.deep.equal(['/hook', `Basic ${Buffer.from('hook user:p@ss:word').toString('base64')}`]);
  });

  it('retries a 500 and keeps its status and body in the error', async () => {
    await start({ status: 500, body: 'boom' });
    const err = await failure(callProvider({ url: receiver.url, json: {} }, attempt(5000)));
    expect([err.message, err.retryable, err.permanent]).to.deep.equal(['received status code 500: boom', true, false]);
  });

  it('retries a 429', async () => {
    await start({ status: 429 });
    expect((await failure(callProvider({ url: receiver.url }, attempt(5000)))).retryable).to.equal(true);
  });

  it('does not retry a 400', async () => {
    await start({ status: 400, body: 'bad payload' });
    const err = await failure(callProvider({ url: receiver.url }, attempt(5000)));
    expect([err.message, err.retryable]).to.deep.equal(['received status code 400: bad payload', false]);
  });

  it('marks the statuses the provider names as permanent', async () => {
    await start({ status: 404 });
    expect((await failure(callProvider({ url: receiver.url, permanentOn: [404] }, attempt(5000)))).permanent).to.equal(true);
  });

  it('retries when the receiver does not answer in time', async () => {
    await start('hang');
    const err = await failure(callProvider({ url: receiver.url }, attempt(200)));
    expect([err.message, err.retryable]).to.deep.equal(['timed out', true]);
  });

  it('retries when the connection is refused', async () => {
    const err = await failure(callProvider({ url: `http://127.0.0.1:${await freePort()}/` }, attempt(5000)));
    expect([err.message, err.retryable]).to.deep.equal(['connection failed: ECONNREFUSED', true]);
  });
});
