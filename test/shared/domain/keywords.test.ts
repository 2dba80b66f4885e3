import { expect } from 'chai';
import { classifyText, matchesAny, splitKeywords, type KeywordSettings } from '../../../shared/domain/keywords.js';

const kw: KeywordSettings = { startKw: 'BEGIN', successKw: 'SUCCESS, OK', failureKw: 'FAIL,ERROR', filterDefaultFail: false };

describe('shared/domain/keywords', () => {
  describe('splitKeywords', () => {
    it('splits on commas, trims, and drops empty keywords', () => {
      expect(splitKeywords(' SUCCESS , OK,, ,done ')).to.deep.equal(['SUCCESS', 'OK', 'done']);
    });

    it('gives no keywords for an empty list', () => {
      expect(splitKeywords('')).to.deep.equal([]);
    });
  });

  describe('matchesAny', () => {
    it('is a case-sensitive substring test', () => {
      expect(matchesAny('Backup [OK]', 'SUCCESS, OK')).to.equal(true);
      expect(matchesAny('backup ok', 'SUCCESS, OK')).to.equal(false);
    });

    it('supports non-ASCII keywords', () => {
      expect(matchesAny('Sauvegarde réussie ✓', 'réussie')).to.equal(true);
    });

    it('never matches with an empty or blank list', () => {
      expect(matchesAny('anything', '')).to.equal(false);
      expect(matchesAny('anything', ' , ')).to.equal(false);
    });
  });

  describe('classifyText', () => {
    it('puts failure before success', () => {
      expect(classifyText('OK, then ERROR', kw)).to.equal('fail');
    });

    it('puts success before start', () => {
      expect(classifyText('BEGIN ... SUCCESS', kw)).to.equal('success');
    });

    it('recognises start keywords', () => {
      expect(classifyText('BEGIN nightly', kw)).to.equal('start');
    });

    it('gives ign when nothing matches, fail with filterDefaultFail', () => {
      expect(classifyText('nothing', kw)).to.equal('ign');
      expect(classifyText('nothing', { ...kw, filterDefaultFail: true })).to.equal('fail');
    });
  });
});
