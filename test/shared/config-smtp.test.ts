import { expect } from 'chai';
import { loadConfig } from '../../shared/config.js';

describe('shared/config: smtpd settings', () => {
  it('defaults to port 2525 on all interfaces with a 10 MiB limit', () => {
    const config = loadConfig({});
    expect([config.smtpPort, config.smtpHost, config.smtpMaxMessageBytes]).to.deep.equal([2525, '0.0.0.0', 10 * 1024 * 1024]);
  });

  it('takes the ping email domain from the host of BASE_URL by default', () => {
    expect(loadConfig({ BASE_URL: 'https://HC.Example.com:8443/' }).pingEmailDomain).to.equal('hc.example.com');
  });

  it('reads PING_EMAIL_DOMAIN, lowercased', () => {
    expect(loadConfig({ PING_EMAIL_DOMAIN: 'Ping.Example.com' }).pingEmailDomain).to.equal('ping.example.com');
  });

  it('refuses an SMTP_HOST that is not an IP address', () => {
    expect(() => loadConfig({ SMTP_HOST: 'mail server' })).to.throw(/SMTP_HOST/);
  });

  it('refuses a PING_EMAIL_DOMAIN that is not a host name', () => {
    expect(() => loadConfig({ PING_EMAIL_DOMAIN: 'user@example.com' })).to.throw(/PING_EMAIL_DOMAIN/);
  });
});
