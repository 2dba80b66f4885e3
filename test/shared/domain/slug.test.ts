import { expect } from 'chai';
import { slugify } from '../../../shared/domain/slug.js';

/** Inputs and the slugs Django's `slugify` gives for them (recorded from Django 5). */
const DJANGO: Array<[string, string]> = [
  ['Database Backup! (prod)', 'database-backup-prod'],
  ['Foo', 'foo'],
  ['UPPER lower 123', 'upper-lower-123'],
  ['a - b -- c', 'a-b-c'],
  ['x.y,z;w', 'xyzw'],
  ['  --Hello__World--  ', 'hello__world'],
  ['tag_with_underscores_', 'tag_with_underscores'],
  ['Crème brûlée', 'creme-brulee'],
  ['\ufb01le \u3392 \u2026 x', 'file-mhz-x'],
  ['Ωmega straße', 'mega-strae'],
  ['a\x1cb\tc\u00a0d', 'a-b-c-d'],
  ['---', ''],
  ['日本語', ''],
];

describe('shared/domain/slug', () => {
  for (const [name, slug] of DJANGO) {
    it(`slugifies ${JSON.stringify(name)} to ${JSON.stringify(slug)} as Django does`, () => {
      expect(slugify(name)).to.equal(slug);
    });
  }
});
