import { expect } from 'chai';
import { describeSchedule } from '../../../shared/domain/schedule-words.js';

/** Cron expressions and their sentences. */
const CRON: Array<[string, string]> = [
  ['* * * * *', 'Every minute'],
  ['*/5 * * * *', 'Every 5 minutes'],
  ['0/15 * * * *', 'Every 15 minutes'],
  ['0,30 * * * *', 'Every 30 minutes'],
  ['0 * * * *', 'Every hour on the hour'],
  ['15 * * * *', 'Every hour at 15 minutes past the hour'],
  ['0 */2 * * *', 'Every 2 hours on the hour'],
  ['30 */6 * * *', 'Every 6 hours at 30 minutes past the hour'],
  ['0 3 * * *', 'At 03:00 every day'],
  ['0 3 * * *  ', 'At 03:00 every day'],
  ['30 9 * * 1-5', 'At 09:30 on Monday to Friday'],
  ['30 9 * * MON-FRI', 'At 09:30 on Monday to Friday'],
  ['0 10 * * 6,0', 'At 10:00 on Saturday and Sunday'],
  ['0 10 * * 7', 'At 10:00 on Sunday'],
  ['0 8 * * 1,3,5', 'At 08:00 on Monday, Wednesday and Friday'],
  ['0 8 * * 0-4', 'At 08:00 on Monday to Thursday and Sunday'],
  ['0 3,15 * * *', 'At 03:00 and 15:00 every day'],
  ['0,30 9 * * *', 'At 09:00 and 09:30 every day'],
  ['0 0 1 * *', 'At 00:00 on the 1st of every month'],
  ['45 23 22 * *', 'At 23:45 on the 22nd of every month'],
  ['0 6 11 * *', 'At 06:00 on the 11th of every month'],
  ['*/10 * * * 1-5', 'Every 10 minutes on Monday to Friday'],
  ['0 0 */1 * 1', 'At 00:00 on Monday'],
];

/** OnCalendar expressions and their sentences. */
const CALENDAR: Array<[string, string]> = [
  ['daily', 'At 00:00 every day'],
  ['hourly', 'Every hour on the hour'],
  ['minutely', 'Every minute'],
  ['weekly', 'At 00:00 on Monday'],
  ['monthly', 'At 00:00 on the 1st of every month'],
  ['*-*-* 03:00:00', 'At 03:00 every day'],
  ['Mon..Fri *-*-* 09:30', 'At 09:30 on Monday to Friday'],
  ['Sat,Sun 10:00', 'At 10:00 on Saturday and Sunday'],
  ['*:0/5', 'Every 5 minutes'],
  ['*-*-* 03:00 Europe/Riga', 'At 03:00 every day (Europe/Riga)'],
];

/** Schedules the describer must leave without words: it cannot say them exactly. */
const UNSAID: string[] = [
  '*/7 * * * *', // 0, 7, …, 56 then 0 again: not "every 7 minutes"
  '0 */5 * * *', // 0, 5, …, 20 then 0: not "every 5 hours"
  '0 0 1 * 1', // the 1st or any Monday (cron's OR of the two day fields)
  '0 0 1-31 * 1', // every day, by the same OR
  '0 0 * 1 *', // January only
  '0 0 L * *',
  '0 0 * * 5L',
  '0 0 * * 1#2',
  '0 9-17 * * *', // nine times a day: too many to list
  '0 0 1,15 * *',
  '5,10 * * * *',
  'not a schedule',
  '',
  '*-*-* *:*:30', // at second 30
  '*-01-01 00:00', // yearly
  '2030-*-* 03:00', // one year only
  '*-*~1 03:00', // last day of the month
  'daily\nhourly', // two lines
  'Mon *-*-01 03:00', // a Monday that is the 1st
];

describe('shared/domain/schedule-words', () => {
  for (const [expr, words] of [...CRON, ...CALENDAR]) {
    it(`says ${JSON.stringify(expr)} as "${words}"`, () => {
      expect(describeSchedule(expr)).to.equal(words);
    });
  }
  for (const expr of UNSAID) {
    it(`does not describe ${JSON.stringify(expr)}`, () => {
      expect(describeSchedule(expr)).to.equal(null);
    });
  }
});
