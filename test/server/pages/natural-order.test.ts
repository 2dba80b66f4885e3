/** The checks list's natural name order (server/pages/checks/list/list-query.ts): keys compared as plain strings. */
import { expect } from 'chai';
import { naturalKey } from '../../../server/pages/checks/list/list-query.js';

describe('natural name order', () => {
  const sorted = (names: string[]): string[] => [...names].sort((a, b) => (naturalKey(a) < naturalKey(b) ? -1 : naturalKey(a) > naturalKey(b) ? 1 : 0));

  it('ignores case and accents and reads runs of digits as numbers', () => {
    expect(sorted(['B', 'a', 'check 10', 'check 2', 'Élan', 'eagle', 'check 02b', 'check 2a'])).to.deep.equal(['a', 'B', 'check 2', 'check 2a', 'check 02b', 'check 10', 'eagle', 'Élan']);
  });

  it('orders numbers longer than any other by their value', () => {
    expect(sorted(['job 100000000000', 'job 99', 'job 9'])).to.deep.equal(['job 9', 'job 99', 'job 100000000000']);
  });
});
