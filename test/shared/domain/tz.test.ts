import { expect } from 'chai';
import moment from 'moment-timezone';
import { canonicalTz } from '../../../shared/domain/tz.js';
import { LEGACY_TIME_ZONES } from '../../../shared/domain/tz-legacy.js';

describe('canonicalTz (docs/checks.md, "Time zones")', () => {
  for (const tz of ['UTC', 'Etc/UTC', 'Europe/Riga', 'America/New_York', 'Australia/Sydney', 'Etc/GMT+5']) {
    it(`keeps the canonical name ${tz}`, () => {
      expect(canonicalTz(tz)).to.equal(tz);
    });
  }

  const legacy: Record<string, string> = {
    'Europe/Kiev': 'Europe/Kyiv',
    UCT: 'Etc/UTC',
    CET: 'Europe/Brussels',
    'US/Eastern': 'America/New_York',
    'Asia/Calcutta': 'Asia/Kolkata',
    'America/Godthab': 'America/Nuuk',
    EST5EDT: 'America/New_York',
    'Etc/Zulu': 'Etc/UTC',
    GB: 'Europe/London',
  };
  for (const [alias, canonical] of Object.entries(legacy)) {
    it(`rewrites the legacy alias ${alias} to ${canonical}`, () => {
      expect(canonicalTz(alias)).to.equal(canonical);
    });
  }

  // moment-timezone stores these as links to another name, yet they are current names.
  for (const tz of ['Europe/Kyiv', 'America/Nuuk', 'Europe/Amsterdam', 'Arctic/Longyearbyen']) {
    it(`keeps ${tz}, which moment-timezone stores as a link`, () => {
      expect(canonicalTz(tz)).to.equal(tz);
    });
  }

  for (const tz of ['Mars/Olympus_Mons', 'utc', 'europe/riga', ' UTC', '', '+02:00', 'EEST', 'Factory', 'Europe/']) {
    it(`returns null for ${JSON.stringify(tz)}`, () => {
      expect(canonicalTz(tz)).to.equal(null);
    });
  }

  it('maps every legacy alias to a known canonical name', () => {
    for (const [alias, canonical] of LEGACY_TIME_ZONES) {
      expect(moment.tz.zone(alias), alias).to.not.equal(null);
      expect(canonicalTz(canonical), alias).to.equal(canonical);
    }
  });

  it('maps every alias to a zone with the same current UTC offset in January and July', () => {
    for (const [alias, canonical] of LEGACY_TIME_ZONES) {
      for (const at of [Date.UTC(2026, 0, 15), Date.UTC(2026, 6, 15)]) {
        expect(moment.tz.zone(canonical)?.utcOffset(at), alias).to.equal(moment.tz.zone(alias)?.utcOffset(at));
      }
    }
  });
});
