import { expect } from 'chai';
import { loadConfig } from '../../shared/config.js';

describe('shared/config: operations settings', () => {
  it('defaults to per-project metrics on, /metrics, and no credential, token or worker listener', () => {
    expect(loadConfig({}).ops).to.deep.equal({
      prometheusEnabled: true,
      metricsPath: '/metrics',
      metricsToken: null,
      admin: null,
      workerMetricsPort: null,
      workerMetricsHost: '0.0.0.0',
    });
  });

  it('reads the admin credential and treats empty values as unset', () => {
    expect(loadConfig({ ADMIN_USER: 'ops', ADMIN_PASSWORD: 'secret' }).ops.admin).to.deep.equal({ user: 'ops', password: 'secret' });
    expect(loadConfig({ ADMIN_USER: '', ADMIN_PASSWORD: '', METRICS_TOKEN: '' }).ops).to.include({ admin: null, metricsToken: null });
  });

  it('refuses an admin user without a password, and the reverse', () => {
    expect(() => loadConfig({ ADMIN_USER: 'ops' })).to.throw(/ADMIN_USER and ADMIN_PASSWORD must be set together/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'secret' })).to.throw(/ADMIN_USER and ADMIN_PASSWORD must be set together/);
  });

  it('refuses a worker metrics port with no credential to guard it', () => {
    expect(() => loadConfig({ WORKER_METRICS_PORT: '9100' })).to.throw(/WORKER_METRICS_PORT needs METRICS_TOKEN/);
    expect(loadConfig({ WORKER_METRICS_PORT: '9100', METRICS_TOKEN: 't' }).ops.workerMetricsPort).to.equal(9100);
  });

  it('refuses a METRICS_PATH that is not an absolute path, and PROMETHEUS_ENABLED that is not a boolean', () => {
    expect(() => loadConfig({ METRICS_PATH: 'metrics' })).to.throw(/METRICS_PATH/);
    expect(() => loadConfig({ PROMETHEUS_ENABLED: 'maybe' })).to.throw(/PROMETHEUS_ENABLED/);
    expect(loadConfig({ PROMETHEUS_ENABLED: '0' }).ops.prometheusEnabled).to.equal(false);
  });
});
