import { expect } from 'chai';
import { loadConfig } from '../../shared/config.js';

describe('shared/config: QUEUE_PREFIX and REDIS_CLUSTER_NODES', () => {
  it('takes a QUEUE_PREFIX with one hash tag', () => {
    expect(loadConfig({ QUEUE_PREFIX: '{hc}' }).queuePrefix).to.equal('{hc}');
    expect(loadConfig({ QUEUE_PREFIX: 'prod-{hc}_1' }).queuePrefix).to.equal('prod-{hc}_1');
  });

  for (const prefix of ['{hc', 'hc}', '{}', '{a}{b}', '{{hc}}', 'a:b']) {
    it(`refuses QUEUE_PREFIX=${prefix} in one line`, () => {
      expect(() => loadConfig({ QUEUE_PREFIX: prefix })).to.throw(/^bad configuration: QUEUE_PREFIX must be letters, digits, _ and -, with at most one Redis Cluster hash tag in balanced curly braces$/);
    });
  }

  it('reads REDIS_CLUSTER_NODES as host:port nodes and tags the default prefix', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis-b.internal:7001' });
    expect(config.redisClusterNodes).to.deep.equal([{ host: '10.0.0.1', port: 7000 }, { host: 'redis-b.internal', port: 7001 }]);
    expect(config.queuePrefix).to.equal('{hc}');
  });

  it('refuses a cluster with a QUEUE_PREFIX whose queue keys would span slots', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: 'hc' })).to.throw(/QUEUE_PREFIX needs a hash tag/);
  });

  it('refuses REDIS_CLUSTER_NODES that are not host:port pairs', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1' })).to.throw('bad configuration: REDIS_CLUSTER_NODES must be host:port pairs separated by commas');
  });
});
