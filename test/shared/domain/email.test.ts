import { expect } from 'chai';
import {
  checkEmailAddress,
  classifyEmail,
  emailText,
  parseRecipient,
  type EmailContent,
  type EmailFilterSettings,
} from '../../../shared/domain/email.js';

const DOMAIN = 'ping.example.org';
const UUID = '7918b17b-a745-4db1-8575-9d2e07c97f79';
const PING_KEY = 'aB3_-xYz0123456789abcd';

const NONE: EmailFilterSettings = {
  filterSubject: false,
  filterBody: false,
  filterDefaultFail: false,
  legacySubject: false,
  startKw: '',
  successKw: '',
  failureKw: '',
};

function content(fields: Partial<EmailContent>): EmailContent {
  return { subject: '', text: null, htmlText: null, ...fields };
}

describe('shared/domain/email', () => {
  describe('checkEmailAddress', () => {
    it('is the check UUID at the ping email domain', () => {
      expect(checkEmailAddress(UUID, DOMAIN)).to.equal(`${UUID}@${DOMAIN}`);
    });
  });

  describe('parseRecipient', () => {
    it('reads a UUID mailbox', () => {
      expect(parseRecipient(`${UUID}@${DOMAIN}`, DOMAIN)).to.deep.equal({ kind: 'uuid', uuid: UUID });
    });

    it('lowercases an upper-case UUID mailbox and domain', () => {
      const parsed = parseRecipient(`${UUID.toUpperCase()}@PING.Example.ORG`, DOMAIN);
      expect(parsed).to.deep.equal({ kind: 'uuid', uuid: UUID });
    });

    it('reads a ping key + slug mailbox', () => {
      const parsed = parseRecipient(`${PING_KEY}+db-backup_2@${DOMAIN}`, DOMAIN);
      expect(parsed).to.deep.equal({ kind: 'slug', pingKey: PING_KEY, slug: 'db-backup_2' });
    });

    it('rejects another domain as "Recipient rejected"', () => {
      expect(parseRecipient(`${UUID}@example.com`, DOMAIN)).to.equal('5.1.1 Recipient rejected');
    });

    it('rejects a subdomain of the ping email domain', () => {
      expect(parseRecipient(`${UUID}@mx.${DOMAIN}`, DOMAIN)).to.equal('5.1.1 Recipient rejected');
    });

    it('rejects an address without a domain as "Recipient rejected"', () => {
      expect(parseRecipient(UUID, DOMAIN)).to.equal('5.1.1 Recipient rejected');
    });

    it('rejects a mailbox that is neither form as "Invalid mailbox"', () => {
      expect(parseRecipient(`backup@${DOMAIN}`, DOMAIN)).to.equal('5.1.1 Invalid mailbox');
    });

    it('rejects an upper-case slug as "Invalid mailbox"', () => {
      expect(parseRecipient(`${PING_KEY}+Backup@${DOMAIN}`, DOMAIN)).to.equal('5.1.1 Invalid mailbox');
    });

    it('rejects a ping key that is not 22 characters as "Invalid mailbox"', () => {
      expect(parseRecipient(`${PING_KEY}x+backup@${DOMAIN}`, DOMAIN)).to.equal('5.1.1 Invalid mailbox');
    });
  });

  describe('emailText', () => {
    const parts = content({ subject: 'S', text: 'T', htmlText: 'H' });

    it('joins subject, plain text and HTML text with newlines when both filters are on', () => {
      expect(emailText({ ...NONE, filterSubject: true, filterBody: true }, parts)).to.equal('S\nT\nH');
    });

    it('uses only the subject with filter_subject', () => {
      expect(emailText({ ...NONE, filterSubject: true }, parts)).to.equal('S');
    });

    it('uses only the body parts with filter_body, leaving absent parts out', () => {
      expect(emailText({ ...NONE, filterBody: true }, content({ subject: 'S', htmlText: 'H' }))).to.equal('H');
    });
  });

  describe('classifyEmail', () => {
    const bySubject = { ...NONE, filterSubject: true, startKw: 'Started', successKw: 'SUCCESS, OK', failureKw: 'FAIL' };

    it('is success when no filter is on, whatever the content', () => {
      expect(classifyEmail({ ...NONE, failureKw: 'FAIL' }, content({ subject: 'FAIL' }))).to.equal('success');
    });

    it('matches a keyword of a comma-separated list as a substring', () => {
      expect(classifyEmail(bySubject, content({ subject: 'Backup [OK]' }))).to.equal('success');
    });

    it('prefers failure over success', () => {
      expect(classifyEmail(bySubject, content({ subject: 'SUCCESS then FAIL' }))).to.equal('fail');
    });

    it('prefers success over start', () => {
      expect(classifyEmail(bySubject, content({ subject: 'Started, then OK' }))).to.equal('success');
    });

    it('gives start for a start keyword', () => {
      expect(classifyEmail(bySubject, content({ subject: 'Job Started' }))).to.equal('start');
    });

    it('matches case-sensitively', () => {
      expect(classifyEmail(bySubject, content({ subject: 'fail' }))).to.equal('ign');
    });

    it('matches non-ASCII keywords', () => {
      const settings = { ...NONE, filterSubject: true, successKw: 'Sauvegarde réussie' };
      expect(classifyEmail(settings, content({ subject: '✓ Sauvegarde réussie' }))).to.equal('success');
    });

    it('gives fail for no match with filter_default_fail', () => {
      expect(classifyEmail({ ...bySubject, filterDefaultFail: true }, content({ subject: 'x' }))).to.equal('fail');
    });

    it('ignores filter_http_body', () => {
      const settings = { ...NONE, filterHttpBody: true, failureKw: 'FAIL' };
      expect(classifyEmail(settings, content({ text: 'FAIL' }))).to.equal('success');
    });

    it('counts a non-matching email as success for legacy keywords with empty success keywords', () => {
      const legacy = { ...NONE, filterSubject: true, legacySubject: true, failureKw: 'FAIL' };
      expect(classifyEmail(legacy, content({ subject: 'nightly run' }))).to.equal('success');
    });

    it('still gives fail for a legacy check when the failure keyword matches', () => {
      const legacy = { ...NONE, filterSubject: true, legacySubject: true, failureKw: 'FAIL' };
      expect(classifyEmail(legacy, content({ subject: 'FAIL: disk full' }))).to.equal('fail');
    });

    it('ignores a non-matching email for a legacy check that has success keywords', () => {
      const legacy = { ...NONE, filterSubject: true, legacySubject: true, successKw: 'OK', failureKw: 'FAIL' };
      expect(classifyEmail(legacy, content({ subject: 'nightly run' }))).to.equal('ign');
    });
  });
});
