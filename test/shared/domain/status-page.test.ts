import { expect } from 'chai';
import { componentState, historyDays, historyOf, overallStatus, SLUG_RE, HISTORY_DAYS } from '../../../shared/domain/status-page.js';
import type { StatusChange } from '../../../shared/domain/uptime.js';
import type { StoredStatus } from '../../../shared/models/check.js';

const HOUR = 3600_000;
const NOW = new Date('2026-11-28T12:00:00Z');
const flip = (iso: string, oldStatus: StoredStatus, newStatus: StoredStatus): StatusChange => ({ created: new Date(iso), oldStatus, newStatus });

describe('componentState and overallStatus', () => {
  it('names a component by its stored status, maintenance first', () => {
    expect(['up', 'down', 'paused', 'new'].map((s) => componentState(s as StoredStatus, false))).to.deep.equal(['operational', 'outage', 'paused', 'unknown']);
    expect(componentState('down', true)).to.equal('maintenance');
  });

  it('is operational, partial up to half of the monitored components down, major beyond, maintenance without an outage', () => {
    expect(overallStatus(['operational', 'operational', 'paused'])).to.equal('operational');
    expect(overallStatus(['operational', 'outage'])).to.equal('partial');
    expect(overallStatus(['operational', 'outage', 'outage'])).to.equal('major');
    // Components not monitored (paused, never pinged) do not count: one down of one monitored is major.
    expect(overallStatus(['outage', 'paused', 'unknown'])).to.equal('major');
    expect(overallStatus(['operational', 'maintenance'])).to.equal('maintenance');
    expect(overallStatus(['outage', 'maintenance', 'operational'])).to.equal('partial');
    expect(overallStatus([])).to.equal('operational');
  });
});

describe('historyDays', () => {
  it('gives 90 calendar days of the zone, oldest first, today cut at now', () => {
    const days = historyDays(NOW, 'UTC');
    expect(days).to.have.length(HISTORY_DAYS);
    expect(days.at(-1)).to.deep.equal({ date: '2026-11-28', start: new Date('2026-11-28T00:00:00Z'), end: NOW });
    expect(days[0].date).to.equal('2026-08-31');
  });

  it('follows a DST change: the day Riga leaves summer time lasts 25 hours', () => {
    const day = historyDays(NOW, 'Europe/Riga').find((d) => d.date === '2026-10-25')!;
    expect(day.end.getTime() - day.start.getTime()).to.equal(25 * HOUR);
    expect(day.start).to.deep.equal(new Date('2026-10-24T21:00:00Z'));
  });
});

describe('historyOf', () => {
  const days = historyDays(NOW, 'UTC');

  it('marks the day of a 2-hour outage with one downtime and its time down, and the span below 100 %', () => {
    const history = historyOf([flip('2026-11-18T10:00:00Z', 'up', 'down'), flip('2026-11-18T12:00:00Z', 'down', 'up')], 'up', days);
    const day = history.days.find((d) => d.date === '2026-11-18')!;
    expect(day).to.deep.include({ downtimes: 1, downMs: 2 * HOUR, level: 'major' });
    expect(day.ratio).to.be.closeTo(22 / 24, 1e-9);
    expect(history.days.find((d) => d.date === '2026-11-17')).to.deep.include({ downtimes: 0, level: 'up', ratio: 1 });
    expect(history.ratio).to.be.lessThan(1).and.greaterThan(0.99);
  });

  it('starts from the status before the span (a flip older than 90 days) and leaves unmonitored days without data', () => {
    const history = historyOf([flip('2026-01-01T00:00:00Z', 'new', 'down'), flip('2026-11-27T00:00:00Z', 'down', 'paused')], 'paused', days);
    expect(history.days[0]).to.deep.include({ level: 'major', ratio: 0 });
    expect(history.days.at(-1)).to.deep.include({ level: 'none', ratio: null, downtimes: 0 });
  });

  it('calls a day with under 1 % down minor', () => {
    const history = historyOf([flip('2026-11-20T10:00:00Z', 'up', 'down'), flip('2026-11-20T10:10:00Z', 'down', 'up')], 'up', days);
    expect(history.days.find((d) => d.date === '2026-11-20')).to.deep.include({ level: 'minor', downtimes: 1 });
  });
});

describe('SLUG_RE', () => {
  it('takes lower-case letters, digits and inner hyphens, 1 to 64 characters', () => {
    for (const ok of ['a', 'acme', 'acme-billing-2', 'x'.repeat(64)]) expect(SLUG_RE.test(ok), ok).to.equal(true);
    for (const bad of ['', 'Acme', '-acme', 'acme-', 'a_b', 'a/b', '..', 'x'.repeat(65), 'é']) expect(SLUG_RE.test(bad), bad).to.equal(false);
  });
});
