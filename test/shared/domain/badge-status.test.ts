import { expect } from 'chai';
import { hasTag, summarizeBadge } from '../../../shared/domain/badge-status.js';

describe('summarizeBadge', () => {
  it('is up with zero counts when no check counts', () => {
    expect(summarizeBadge([], 3)).to.deep.equal({ status: 'up', total: 0, grace: 0, down: 0 });
  });

  it('is late when a check is in grace and the badge has 3 states', () => {
    expect(summarizeBadge(['up', 'grace'], 3)).to.deep.equal({ status: 'late', total: 2, grace: 1, down: 0 });
  });

  it('stays up with 2 states but still counts the check in grace', () => {
    expect(summarizeBadge(['up', 'grace'], 2)).to.deep.equal({ status: 'up', total: 2, grace: 1, down: 0 });
  });

  it('is down when any check is down, ahead of grace', () => {
    expect(summarizeBadge(['grace', 'down', 'down'], 3)).to.deep.equal({ status: 'down', total: 3, grace: 1, down: 2 });
  });

  it('counts new and paused checks as up', () => {
    expect(summarizeBadge(['new', 'paused'], 3).status).to.equal('up');
  });
});

describe('hasTag', () => {
  it('matches an exact space-separated token', () => {
    expect(hasTag('prod db', 'db')).to.equal(true);
  });

  it('does not match a token that only contains the tag', () => {
    expect(hasTag('dbx prod-db', 'db')).to.equal(false);
  });

  it('ignores repeated and surrounding spaces', () => {
    expect(hasTag('  a   db  ', 'db')).to.equal(true);
  });
});
