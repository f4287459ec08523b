import { randomUUID } from 'node:crypto';
import type { Mailer } from '#lib/notify/mail/types';
import * as channels from '#lib/notify/repository/channels';
import * as deliveries from '#lib/notify/repository/deliveries';
import * as watchers from '#lib/watchers/repository';
import { namedChannels } from '#lib/watchers/types';
import { Conflict, Invalid } from '#lib/shared/errors';
import { allowLocalWebhooks, maskedUrl, targetProblem, type Lookup } from './address';
import { deliverer } from './deliver';
import { testDigest } from './pure/digest';
import { deliveryId } from './pure/plan';
import { requireAllowedRecipients } from './mail/pure/recipients';
import { newSecret } from './pure/signature';
import { credentialsOf, instanceOrigin, instancePathProblem, MASKED_CREDENTIAL } from './servicenow/pure/channel';
import type { Channel, ChannelInput, DeliveryView, ServiceNowInput } from './types';
import { isMaskedRoutingKey } from './pagerduty/pure/events';

/** A masked routing key names no key: only a PUT that sends back the stored channel's own mask keeps it. */
const requireWholeRoutingKey = (key: string): void => {
  if (!isMaskedRoutingKey(key)) return;
  const message = 'body.routingKey is masked; send the whole integration key (a masked one only keeps the key of the channel it was read from)';
  throw new Invalid('routingKey must be the whole integration key', [{ field: 'body.routingKey', message }]);
};

/*
 * Notification channels (webhooks, e-mail lists and ServiceNow instances a watcher tells): the rules around the repository. A webhook URL is
 * checked for a public target when written (and again before each send); its signing secret
 * is answered once, by create and rotate-secret, and so is its whole URL (whoever reads a
 * Slack or Teams URL whole can post into the channel: every other answer masks its path); a channel a watcher uses cannot be deleted.
 */

interface ChannelRules {
  allowLocal?: boolean;
  lookup?: Lookup;
}

const checkTarget = async (input: ChannelInput, rules: ChannelRules): Promise<void> => {
  if (input.type === 'email') return requireAllowedRecipients(input.emails, 'body.emails');
  if (input.type === 'pagerduty') return; // the Events API's address is the stage's (PAGERDUTY_EVENTS_URL), not the client's
  if (input.type === 'servicenow') return checkInstance(input, rules);
  const problem = await targetProblem(input.url, rules.allowLocal ?? allowLocalWebhooks(), rules.lookup);
  if (!problem) return;
  const message = problem.startsWith('url ') ? `body.${problem}` : `body.url: ${problem}`;
  throw new Invalid('url is not an allowed webhook target', [{ field: 'body.url', message }]);
};

/** A ServiceNow instance URL is held to the rule of webhook URLs (https to a public host; http on loopback only locally), and names the instance only; its credentials are complete. */
const checkInstance = async (input: ServiceNowInput, rules: ChannelRules): Promise<void> => {
  const problem = instancePathProblem(input.instanceUrl) ?? (await targetProblem(input.instanceUrl, rules.allowLocal ?? allowLocalWebhooks(), rules.lookup))?.replace(/^url /, 'instanceUrl ');
  if (problem) {
    const message = problem.startsWith('instanceUrl ') ? `body.${problem}` : `body.instanceUrl: ${problem}`;
    throw new Invalid('instanceUrl is not an allowed ServiceNow instance', [{ field: 'body.instanceUrl', message }]);
  }
  credentialsOf(input);
};

/** A channel as answered once: a webhook's with its signing secret, a PagerDuty channel's with its whole routing key. */
type ChannelWithSecret = Channel & { secret?: string };

/** A channel as every answer but create and rotate-secret shows it: a webhook's URL masked (a PagerDuty routing key is stored masked). */
const maskedChannel = (channel: Channel): Channel => (channel.type === 'webhook' ? { ...channel, url: maskedUrl(channel.url) } : channel);

export const getChannel = async (id: string): Promise<Channel> => maskedChannel(await channels.get(id));

export const listChannels = async (): Promise<Channel[]> => (await channels.list()).map(maskedChannel);

export const createChannel = async (input: ChannelInput, rules: ChannelRules = {}): Promise<ChannelWithSecret> => {
  await checkTarget(input, rules);
  if (input.type === 'servicenow') {
    if (input.password === MASKED_CREDENTIAL || input.clientSecret === MASKED_CREDENTIAL) throw maskIsNoCredential(input);
    return channels.create(input, credentialsOf(input).secret);
  }
  if (input.type === 'pagerduty') {
    requireWholeRoutingKey(input.routingKey);
    // the routing key is stored as a webhook's signing secret is, and answered whole this once
    const created = await channels.create(input, input.routingKey);
    return created.type === 'pagerduty' ? { ...created, routingKey: input.routingKey } : created;
  }
  const secret = input.type === 'webhook' ? newSecret() : undefined;
  const channel = await channels.create(input, secret);
  return secret ? { ...channel, secret } : channel;
};

/**
 * PUT: a channel keeps its type (a different type is a new channel). A webhook URL sent back
 * exactly as GET masked it keeps the stored URL, so that a read, edit, write of the name works.
 */
export const replaceChannel = async (id: string, input: ChannelInput, rules: ChannelRules = {}): Promise<Channel> => {
  const current = await channels.get(id);
  if (current.type !== input.type) {
    throw new Invalid('type cannot change', [{ field: 'body.type', message: `body.type must stay "${current.type}"; create a new channel for another type` }]);
  }
  if (input.type === 'pagerduty' && current.type === 'pagerduty') {
    // the masked key sent back keeps the stored one (and its mask); a new whole key replaces the secret
    if (input.routingKey === current.routingKey) return channels.replace(id, input);
    requireWholeRoutingKey(input.routingKey);
    return channels.replace(id, input, input.routingKey);
  }
  const kept = input.type === 'webhook' && current.type === 'webhook' && input.url === maskedUrl(current.url) ? { ...input, url: current.url } : input;
  await checkTarget(kept, rules);
  if (kept.type === 'servicenow' && current.type === 'servicenow') {
    const { auth, secret } = credentialsOf(kept);
    // the mask sent back keeps the stored credential, as long as it is the same kind of credential
    if (secret !== MASKED_CREDENTIAL) return maskedChannel(await channels.replace(id, kept, secret));
    if (auth !== current.auth) throw maskIsNoCredential(kept);
    // a credential is sent to its instance: kept for another one, it would go to whoever that is
    // (someone who may change the channel but was never told the password could read it there)
    if (instanceOrigin(kept.instanceUrl) !== current.instanceUrl) throw maskIsNoCredential(kept, 'for another instance');
  }
  return maskedChannel(await channels.replace(id, kept));
};

/** 400: the mask stands for a stored credential, so it cannot be one of a new channel, of another kind of credential or of another instance. */
const maskIsNoCredential = (input: ServiceNowInput, where = '') => {
  const field = input.clientSecret === undefined ? 'password' : 'clientSecret';
  const message = where
    ? `body.${field} "${MASKED_CREDENTIAL}" keeps the stored ${field} of the same instanceUrl only; give the ${field} itself ${where}`
    : `body.${field} "${MASKED_CREDENTIAL}" keeps a stored ${field}; give the ${field} itself`;
  return new Invalid(message, [{ field: `body.${field}`, message }]);
};

export const rotateSecret = async (id: string): Promise<ChannelWithSecret> => {
  const current = await channels.get(id);
  if (current.type !== 'webhook') throw new Conflict(`Channel ${id} is ${current.type === 'email' ? 'an e-mail' : `a ${current.type}`} channel; only webhook channels have a signing secret`);
  const secret = newSecret();
  return { ...(await channels.rotateSecret(id, secret)), secret };
};

/**
 * Deletes a channel no watcher uses; 409 naming the watchers otherwise. The delete holds only
 * if the channel is unchanged since it was read before listing the watchers: a watcher written
 * meanwhile marks the channel used (lib/watchers/write.ts), which makes this a 409.
 */
export const removeChannel = async (id: string): Promise<void> => {
  const { version } = await channels.read(id);
  const users = (await watchers.list()).filter((w) => namedChannels(w).includes(id)).map((w) => w.id);
  if (users.length > 0) throw new Conflict(`Channel ${id} is used by watcher(s) ${users.join(', ')}; remove it from them first`);
  await channels.remove(id, version);
};

/** Sends a `test` notification through the channel now and answers its delivery. */
export const testChannel = async (id: string, mailer: Mailer, deadline: number): Promise<DeliveryView> => {
  await channels.get(id);
  const digest = testDigest(randomUUID(), new Date().toISOString());
  const target = { kind: 'channel' as const, channelId: id };
  const draft = { id: deliveryId(digest, target), digest, target, status: 'pending' as const };
  await deliverer({ mailer, deadline }).sendNow(draft);
  const delivery = await deliveries.view(draft.id);
  if (!delivery) throw new Error(`test delivery of channel ${id} was not stored`);
  return delivery;
};

/** A channel's deliveries, newest first; 404 for an unknown channel. */
export const channelDeliveries = async (id: string, limit: number, cursor?: string) => {
  await channels.get(id);
  return deliveries.log(id, limit, cursor);
};
