/**
 * `group`: sends the alert through each of its member channels (the reference's Group transport). Members are read
 * from MongoDB at send time: only those in the group's project, disabled ones and groups skipped (no loops); UUIDs
 * that name no such channel are ignored, as the reference does.
 */
import Joi from 'joi';
import { Channel, type ChannelDoc } from '../../models/channel.js';
import { DeliveryError, type Provider } from '../types.js';

/** Settings of a group channel. */
export interface GroupSettings {
  /** Member channel UUIDs, in the order given. */
  channels: string[];
}

const schema = Joi.object({
  channels: Joi.array().items(Joi.string().guid()).min(1).unique().required(),
});

/** The member UUIDs of a plain value: comma-separated, blanks ignored. */
function fromPlain(value: string): Record<string, unknown> {
  return { channels: value.split(',').map((id) => id.trim()).filter((id) => id !== '') };
}

/** How one member's delivery went: `null` sent, `'no-op'` nothing to send, or the error. */
type MemberOutcome = null | 'no-op' | DeliveryError;

/** `group`. */
export const group: Provider<GroupSettings> = {
  main: 'channels',
  schema,
  fromPlain,
  async send({ settings, alert, projectId, deliverTo }) {
    if (projectId === undefined) throw new DeliveryError('a group needs its project to find its members', false);
    const found = await Channel.find({ _id: { $in: settings.channels }, projectId }).lean<ChannelDoc[]>();
    const byId = new Map(found.map((channel) => [channel._id, channel]));
    const members = settings.channels
      .map((id) => byId.get(id))
      .filter((channel): channel is ChannelDoc => channel !== undefined && !channel.disabled && channel.kind !== 'group');
    const outcomes = await Promise.all(
      members.map(async (member): Promise<MemberOutcome> => {
        try {
          // Each member has its own id for providers that deduplicate on it.
          return (await deliverTo(member, { ...alert, id: `${alert.id}.${member._id}` })) ? null : 'no-op';
        } catch (err) {
          return err instanceof DeliveryError ? err : new DeliveryError(err instanceof Error ? err.message : String(err), true);
        }
      }),
    );
    const failures = members.flatMap((member, i) => {
      const outcome = outcomes[i];
      return outcome instanceof DeliveryError ? [{ member, error: outcome }] : [];
    });
    if (failures.length === 0) return;
    const details = failures.map(({ member, error }) => `${member.name || member.kind} (${member._id}): ${error.message}`);
    throw new DeliveryError(
      `${failures.length} out of ${members.length} notifications failed: ${details.join('; ')}`,
      failures.some(({ error }) => error.retryable),
    );
  },
};
