/** Integration JSON (behaviour.md §1.7). */
import type { ChannelDoc } from '../../shared/models/channel.js';

/** A channel as `GET channels/` lists it. */
export interface ChannelJson {
  id: string;
  name: string;
  kind: string;
}

/** `{id, name, kind}` of a channel. */
export function presentChannel(channel: Pick<ChannelDoc, '_id' | 'name' | 'kind'>): ChannelJson {
  return { id: channel._id, name: channel.name, kind: channel.kind };
}
