import { expect } from 'chai';
import { buildCheck, buildProject, type TestProject } from '../../../helpers/factories.js';
import { Check } from '../../../../shared/models/check.js';
import { api } from '../support.js';

describe('deprecated subject and subject_fail (docs/api-reference.md, "Deprecated subject fields")', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await buildProject();
  });

  it('sets success_kw from subject and turns filter_subject on', async () => {
    const res = await api(p.apiKey).post('/checks/', { subject: 'SUCCESS' });
    expect(res.body).to.include({ success_kw: 'SUCCESS', filter_subject: true, subject: 'SUCCESS', subject_fail: '' });
  });

  it('sets failure_kw from subject_fail', async () => {
    const res = await api(p.apiKey).post('/checks/', { subject_fail: 'ERROR' });
    expect(res.body).to.include({ failure_kw: 'ERROR', filter_subject: true, subject_fail: 'ERROR' });
  });

  it('turns filter_subject off when both keyword lists end up empty', async () => {
    const check = await buildCheck(p, { successKw: 'OK', filterSubject: true });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { subject: '' });
    expect(res.body).to.include({ success_kw: '', filter_subject: false });
  });

  it('keeps the stored failure keywords when only subject is given', async () => {
    const check = await buildCheck(p, { failureKw: 'ERR' });
    const res = await api(p.apiKey).post(`/checks/${check._id}`, { subject: '' });
    expect(res.body).to.include({ failure_kw: 'ERR', filter_subject: true, subject_fail: 'ERR' });
  });

  it('lets an explicit filter_subject override the derived value', async () => {
    const res = await api(p.apiKey).post('/checks/', { subject: 'SUCCESS', filter_subject: false });
    expect(res.body).to.include({ success_kw: 'SUCCESS', filter_subject: false, subject: '' });
  });

  it('lets an explicit success_kw override subject', async () => {
    const res = await api(p.apiKey).post('/checks/', { subject: 'A', success_kw: 'B' });
    expect(res.body.success_kw).to.equal('B');
  });

  it('flags keywords set through the deprecated fields', async () => {
    const res = await api(p.apiKey).post('/checks/', { subject: '', subject_fail: 'ERR' });
    expect((await Check.findById(res.body.uuid).lean())?.legacySubject).to.equal(true);
  });

  it('clears the flag when the newer fields configure the filter', async () => {
    const check = await buildCheck(p, { legacySubject: true, failureKw: 'ERR', filterSubject: true });
    await api(p.apiKey).post(`/checks/${check._id}`, { success_kw: 'OK' });
    expect((await Check.findById(check._id).lean())?.legacySubject).to.equal(false);
  });

  it('keeps the flag when no keyword field is given', async () => {
    const check = await buildCheck(p, { legacySubject: true });
    await api(p.apiKey).post(`/checks/${check._id}`, { name: 'x' });
    expect((await Check.findById(check._id).lean())?.legacySubject).to.equal(true);
  });
});
