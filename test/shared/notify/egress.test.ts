import { expect } from 'chai';
import { addressRange } from '../../../shared/notify/egress.js';
import { callProvider } from '../../../shared/notify/http.js';
import { DeliveryError } from '../../../shared/notify/types.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

/** A delivery attempt with INTEGRATIONS_ALLOW_PRIVATE_IPS off. */
const guarded = () => ({ signal: AbortSignal.timeout(5000), config: { allowPrivateIps: false } });

async function refusal(url: string): Promise<DeliveryError> {
  const err = await callProvider({ url, json: {} }, guarded()).then(() => null, (e: unknown) => e);
  expect(err).to.be.instanceOf(DeliveryError);
  return err as DeliveryError;
}

describe('shared/notify/egress: provider targets', () => {
  let receiver: Receiver;
  beforeEach(async () => (receiver = await startReceiver()));
  afterEach(() => receiver.close());

  it('names the range of non-public IPv4, IPv6 and IPv4-mapped addresses', () => {
    const ranges = Object.fromEntries(
      ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '224.0.0.1', '0.0.0.0',
        '240.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
        '2001:db8::1'].map((a) => [a, addressRange(a)]),
    );
    expect(ranges).to.deep.equal({
      '127.0.0.1': 'loopback', '10.1.2.3': 'private', '172.16.0.1': 'private', '192.168.1.1': 'private',
      '169.254.169.254': 'linkLocal', '100.64.0.1': 'carrierGradeNat', '224.0.0.1': 'multicast', '0.0.0.0': 'unspecified',
      '240.0.0.1': 'reserved', '255.255.255.255': 'broadcast', '::1': 'loopback', '::': 'unspecified', 'fe80::1': 'linkLocal',
      'fc00::1': 'uniqueLocal', 'ff02::1': 'multicast', '::ffff:127.0.0.1': 'loopback', '::ffff:10.0.0.1': 'private',
      '2001:db8::1': 'reserved',
    });
  });

  it('passes public IPv4, IPv6 and IPv4-mapped addresses', () => {
    expect(['8.8.8.8', '2606:4700:4700::1111', '::ffff:1.1.1.1'].map(addressRange)).to.deep.equal(['unicast', 'unicast', 'unicast']);
  });

  it('refuses a loopback IP in the URL without retrying, and sends nothing', async () => {
    const err = await refusal(`${receiver.url}/hook`);
    expect([err.message, err.retryable, receiver.requests.length]).to.deep.equal([
      'refused to connect to 127.0.0.1 (loopback address); set INTEGRATIONS_ALLOW_PRIVATE_IPS=true to allow private targets',
      false,
      0,
    ]);
  });

  it('refuses a host name that resolves to loopback, checking the address it connects to', async () => {
    const err = await refusal(receiver.url.replace('127.0.0.1', 'localhost'));
    expect(err.message).to.match(/^refused to connect to (127\.0\.0\.1|::1) \(loopback address\)/);
    expect([err.retryable, receiver.requests.length]).to.deep.equal([false, 0]);
  });

  it('refuses an IPv4-mapped IPv6 literal and an IPv6 loopback literal', async () => {
    const port = new URL(receiver.url).port;
    const mapped = await refusal(`http://[::ffff:127.0.0.1]:${port}/`);
    const v6 = await refusal(`http://[::1]:${port}/`);
    expect([mapped.message.split(';')[0], v6.message.split(';')[0]]).to.deep.equal([
      'refused to connect to ::ffff:7f00:1 (loopback address)',
      'refused to connect to ::1 (loopback address)',
    ]);
  });

  it('delivers to the same local receiver when private targets are allowed', async () => {
    await callProvider({ url: `${receiver.url}/hook`, json: {} }, { signal: AbortSignal.timeout(5000), config: { allowPrivateIps: true } });
    expect(receiver.requests.map((r) => r.url)).to.deep.equal(['/hook']);
  });
});
