/** A check's notification log (docs/api.md, "Notes": the notification log): the alerts its flips caused, newest first. */
import { Channel, type ChannelDoc } from '../../shared/models/channel.js';
import { Notification, type NotificationDoc } from '../../shared/models/notification.js';

/** The most notifications a list returns. */
export const MAX_LISTED_NOTIFICATIONS = 100;

/** A notification with its channel as it is now (null when the channel was deleted). */
export interface LoggedNotification {
  notification: NotificationDoc;
  channel: Pick<ChannelDoc, '_id' | 'name' | 'kind'> | null;
}

/** The newest {@link MAX_LISTED_NOTIFICATIONS} notifications of a check (the `checkId, created` index), with their channels. */
export async function listNotifications(checkId: string): Promise<LoggedNotification[]> {
  const notifications = await Notification.find({ checkId }).sort({ created: -1, _id: 1 }).limit(MAX_LISTED_NOTIFICATIONS).lean<NotificationDoc[]>();
  const channelIds = [...new Set(notifications.map((n) => n.channelId))];
  const channels = channelIds.length === 0 ? [] : await Channel.find({ _id: { $in: channelIds } }, { name: 1, kind: 1 }).lean<ChannelDoc[]>();
  const byId = new Map(channels.map((c) => [c._id, c]));
  return notifications.map((notification) => ({ notification, channel: byId.get(notification.channelId) ?? null }));
}
