/**
 * The store of channels (integrations, docs/api.md): creating, listing, updating and deleting them, shared so the
 * admin CLI, the API and the web app apply the same rules; the kind's settings are checked by `shared/notify/kinds.ts`,
 * and the API's and forms' input by server/services/channel-input.ts.
 */
import { randomUUID } from 'node:crypto';
import { Channel, type ChannelDoc } from '../models/channel.js';
import { Project } from '../models/project.js';
import { parseChannelSettings, validateChannelValue } from '../notify/kinds.js';
import type { GroupSettings } from '../notify/providers/group.js';
import { AppError } from '../errors.js';
import { changeChecks, readChecks, unassignChannel } from '../checks/store.js';
import { Check } from '../models/check.js';
import { unconfirmedAfter } from './email-channels.js';

/** What {@link createChannel} needs. */
export interface ChannelInput {
  /** UUID of the owning project. */
  projectId: string;
  /** One of `CHANNEL_KINDS` (shared/notify/kinds.ts). */
  kind: string;
  name: string;
  /** The kind's main setting, or a JSON document of settings. */
  value: string;
}

/**
 * Creates a channel in a project.
 *
 * @param input - The channel; `kind` and `value` are validated by `validateChannelValue`.
 * @param now - Creation moment (`created`, which orders channel lists).
 * @param confirmed - An `email` channel's addresses count as confirmed (`hc-admin channel create --confirmed`);
 *   otherwise they are stored `unconfirmed` and the caller mails each its confirmation (email-channels.ts).
 * @returns The stored channel.
 * @throws AppError(400) for a bad kind or value (a group's members too, see {@link assertGroupMembers});
 *   AppError(404) `project not found: <id>`.
 */
export async function createChannel(input: ChannelInput, now: Date = new Date(), confirmed = false): Promise<ChannelDoc> {
  const value = validateChannelValue(input.kind, input.value);
  const project = await Project.exists({ _id: input.projectId });
  if (!project) throw new AppError(404, `project not found: ${input.projectId}`);
  await assertGroupMembers(input.projectId, input.kind, value);
  const channel = await Channel.create({
    _id: randomUUID(),
    projectId: input.projectId,
    name: input.name,
    kind: input.kind,
    value,
    created: now,
    unconfirmed: confirmed ? [] : unconfirmedAfter(null, input.kind, value),
  });
  return channel.toObject();
}

/**
 * Checks the members of a `group` channel's valid value (nothing for other kinds): each must be a channel of the
 * project that is neither the group itself nor a group.
 * @param selfId - The group's own UUID when it exists already (an update).
 * @throws AppError(400) `invalid channel value: …` naming the first member that is not.
 */
export async function assertGroupMembers(projectId: string, kind: string, value: string, selfId?: string): Promise<void> {
  if (kind !== 'group') return;
  const { channels: ids } = parseChannelSettings(kind, value) as unknown as GroupSettings;
  const found = await Channel.find({ _id: { $in: ids }, projectId }, { kind: 1 }).lean<Pick<ChannelDoc, '_id' | 'kind'>[]>();
  const kinds = new Map(found.map((channel) => [channel._id, channel.kind]));
  for (const id of ids) {
    let problem: string | null = null;
    if (id === selfId) problem = 'is the group itself';
    else if (!kinds.has(id)) problem = 'is not a channel of this project';
    else if (kinds.get(id) === 'group') problem = 'is a group (groups do not nest)';
    if (problem) throw new AppError(400, `invalid channel value: member ${id} ${problem}`);
  }
}

/**
 * A project's channels, oldest first.
 *
 * @param projectId - Project UUID.
 * @throws AppError(404) `project not found: <id>` when the project does not exist.
 */
export async function listChannels(projectId: string): Promise<ChannelDoc[]> {
  const project = await Project.exists({ _id: projectId });
  if (!project) throw new AppError(404, `project not found: ${projectId}`);
  return Channel.find({ projectId }).sort({ created: 1, _id: 1 }).lean<ChannelDoc[]>();
}

/** What {@link updateChannel} may change; absent fields stay. */
export type ChannelChange = Partial<Pick<ChannelDoc, 'name' | 'kind' | 'value' | 'disabled'>>;

/**
 * Changes a channel; a new `kind` or `value` is validated together by `validateChannelValue`, and an email address
 * it adds is stored unconfirmed (the caller mails it, see {@link newAddresses}).
 * @returns The channel after the change.
 * @throws AppError(400) for a bad kind or value; AppError(404) `channel not found: <id>`.
 */
export async function updateChannel(channel: Pick<ChannelDoc, '_id' | 'kind' | 'value' | 'unconfirmed'>, change: ChannelChange): Promise<ChannelDoc> {
  const set: ChannelChange & Pick<ChannelDoc, 'unconfirmed'> = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
  if (change.kind !== undefined || change.value !== undefined) {
    set.value = validateChannelValue(change.kind ?? channel.kind, change.value ?? channel.value);
    set.unconfirmed = unconfirmedAfter(channel, change.kind ?? channel.kind, set.value);
  }
  const updated = await Channel.findOneAndUpdate({ _id: channel._id }, { $set: set }, { returnDocument: 'after' }).lean<ChannelDoc>();
  if (!updated) throw new AppError(404, `channel not found: ${channel._id}`);
  return updated;
}

/** A channel's fields that decide which addresses are mailed a confirmation. */
type Confirming = Pick<ChannelDoc, 'unconfirmed'> & Partial<Pick<ChannelDoc, 'disabled'>>;

/**
 * The ones to mail a confirmation: the unconfirmed addresses `after` has that `before` did not, and every unconfirmed
 * one when the change enables a disabled channel (an address that unsubscribed stays so until it confirms again,
 * docs/web-app.md, Integrations); none: `[]`.
 */
export function newAddresses(before: Confirming | null, after: Confirming): string[] {
  const enabled = before?.disabled === true && after.disabled === false;
  return (after.unconfirmed ?? []).filter((address) => enabled || !(before?.unconfirmed ?? []).includes(address));
}

/**
 * Deletes a channel and unassigns it from every check that had it, so no
 * check keeps a dangling channel id.
 *
 * @param id - Channel UUID.
 * @returns The deleted channel.
 * @throws AppError(404) `channel not found: <id>`.
 */
export async function deleteChannel(id: string): Promise<ChannelDoc> {
  const channel = await Channel.findOneAndDelete({ _id: id }).lean<ChannelDoc>();
  if (!channel) throw new AppError(404, `channel not found: ${id}`);
  await unassignChannel(channel.projectId, id);
  return channel;
}

/** Which checks {@link assignChannel} changes: every check of the project, or the listed UUIDs (others are ignored). */
export type AssignedChecks = 'all' | readonly string[];

/**
 * Assigns a channel to checks of its project (`on`) or takes it off them, through the check store's guarded writer, so
 * a concurrent ping or edit of a check is never lost: each check's list is recomputed from the check as stored.
 *
 * @param channel - The channel (its `projectId` bounds the checks).
 * @param which - `all`, or check UUIDs; a UUID of another project's check changes nothing.
 * @returns How many checks changed.
 * @throws Error when a check keeps changing under its writer; the driver's error.
 */
export async function assignChannel(channel: Pick<ChannelDoc, '_id' | 'projectId'>, which: AssignedChecks, on: boolean): Promise<number> {
  const filter = which === 'all' ? { projectId: channel.projectId } : { projectId: channel.projectId, _id: { $in: [...which] } };
  const ids = (await Check.find(filter, { _id: 1 }).lean<{ _id: string }[]>()).map((check) => check._id);
  const checks = (await readChecks(ids)).filter((check) => check.projectId === channel.projectId);
  const applied = await changeChecks(checks, (check) => {
    const has = check.channels.includes(channel._id);
    if (has === on) return { change: null, result: false };
    const channels = on ? [...check.channels, channel._id] : check.channels.filter((id) => id !== channel._id);
    return { change: { set: { channels } }, result: true };
  });
  return [...applied.values()].filter(({ result }) => result).length;
}
