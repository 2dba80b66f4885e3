import { expect } from 'chai';
import { exactTime, humanPeriod, pageTimes, relativeTime, shortDuration, zoneOr } from '../../../server/pages/kit/times.js';

describe('web app times', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('writes periods in at most two human units', () => {
    expect(humanPeriod(86400)).to.equal('1 day');
    expect(humanPeriod(5400)).to.equal('1 hour 30 minutes');
    expect(humanPeriod(90061)).to.equal('1 day 1 hour');
    expect(humanPeriod(0)).to.equal('0 seconds');
  });

  it('writes run durations short', () => {
    expect(shortDuration(850)).to.equal('0.85 s');
    expect(shortDuration(12_400)).to.equal('12 s');
    expect(shortDuration(340_000)).to.equal('5 min 40 s');
    expect(shortDuration(7_200_000)).to.equal('2 h');
  });

  it('says how long ago or how soon', () => {
    expect(relativeTime(new Date(now.getTime() - 3000), now)).to.equal('just now');
    expect(relativeTime(new Date(now.getTime() - 180_000), now)).to.equal('3 minutes ago');
    expect(relativeTime(new Date(now.getTime() + 7_200_000), now)).to.equal('in 2 hours');
  });

  it('shows the exact time in the viewer’s zone, falling back to UTC for an unknown zone', () => {
    expect(exactTime(now, 'Europe/Riga')).to.equal('2026-11-28 14:00:00 EET');
    expect(zoneOr('Mars/Olympus')).to.equal('UTC');
    expect(pageTimes('Mars/Olympus', now).exact(now)).to.equal('2026-11-28 12:00:00 UTC');
  });
});
