/** A user's report and reminder settings (docs/reports.md): the account page's choice, the unsubscribe link, and when each mail is next due. */
import { AppError } from '../errors.js';
import { User, type UserDoc } from '../models/user.js';
import type { ReportKind } from '../models/report.js';
import { knownZone, periodAt, REMINDER_PERIODS, REPORT_PERIODS, type ReminderPeriod, type ReportPeriod } from '../domain/report-period.js';

/** A user's two settings. */
export interface ReportSettings {
  report: ReportPeriod;
  reminder: ReminderPeriod;
}

/** When a mail sent `every` period is next due after `now` in `tz`: the end of the period holding `now`; null when off. */
export function nextDue(every: ReportPeriod | ReminderPeriod, tz: string, now: Date): Date | null {
  return every === 'off' ? null : periodAt(every, tz, now).end;
}

/**
 * The settings a form sent.
 * @throws AppError(400) naming the field when a value is not one of its choices.
 */
export function parseReportSettings(report: string, reminder: string): ReportSettings {
  const r = REPORT_PERIODS.find((p) => p === report);
  if (!r) throw new AppError(400, 'choose how often to get the report: off, daily, weekly or monthly');
  const m = REMINDER_PERIODS.find((p) => p === reminder);
  if (!m) throw new AppError(400, 'choose how often to be reminded: off, hourly or daily');
  return { report: r, reminder: m };
}

/** Saves the settings; each mail is next due at the end of the current period in the user's zone (a changed choice starts afresh). */
export async function saveReportSettings(user: Pick<UserDoc, '_id' | 'tz'>, settings: ReportSettings, now: Date): Promise<void> {
  const tz = knownZone(user.tz);
  await User.updateOne(
    { _id: user._id },
    { $set: { reportPeriod: settings.report, reminderPeriod: settings.reminder, reportDue: nextDue(settings.report, tz, now), reminderDue: nextDue(settings.reminder, tz, now) } },
  );
}

/**
 * Turns one kind of mail off (the unsubscribe link).
 * @returns The user's address, for the answer.
 * @throws AppError(410) when the account no longer exists.
 */
export async function turnOff(userId: string, kind: ReportKind): Promise<string> {
  const set = kind === 'report' ? { reportPeriod: 'off', reportDue: null } : { reminderPeriod: 'off', reminderDue: null };
  const user = await User.findOneAndUpdate({ _id: userId }, { $set: set }).lean<UserDoc>();
  if (!user) throw new AppError(410, 'this account no longer exists');
  return user.email;
}

/** The address of the user a link names, without changing anything. @throws AppError(410) when the account no longer exists. */
export async function emailOf(userId: string): Promise<string> {
  const user = await User.findById(userId, { email: 1 }).lean<Pick<UserDoc, 'email'>>();
  if (!user) throw new AppError(410, 'this account no longer exists');
  return user.email;
}
