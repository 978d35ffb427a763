import {
  acceptSpaceInviteResponseSchema,
  createId,
  createSpaceInviteResponseSchema,
  type SpaceDetail,
  type SpaceEnding,
  spaceDetailResponseSchema,
  type SpaceGrantableRole,
  type SpaceInvitePreview,
  type SpaceInviteStanding,
  spaceInvitePreviewSchema,
  spaceListResponseSchema,
  spaceMemberResponseSchema,
  spaceResponseSchema,
  type SpaceSummary,
  type SpaceActivityChoice,
  type SpaceActivityList,
  type SpaceActivitySettings,
  spaceActivityListSchema,
  spaceActivitySettingsSchema,
} from '@pipit/protocol';
import * as zm from 'zod/mini';
import { apiGet, apiSend } from './api/request';

/**
 * The spaces API (docs/product/spaces.md) as the installed app and the join page call it. Members
 * and roles are the server's: every change here needs a connection, and says so when offline.
 */

const appSpaces = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/spaces`;
const space = (spaceId: string) => `/api/spaces/${encodeURIComponent(spaceId)}`;
const invite = (token: string) => `/api/space-invites/${encodeURIComponent(token)}`;
const done = zm.looseObject({});

/** The person's spaces in an app, and those they were in that ended lately (deleted). */
export async function fetchSpaces(
  appId: string,
): Promise<{ spaces: SpaceSummary[]; ended: SpaceEnding[] }> {
  return apiGet(appSpaces(appId), spaceListResponseSchema);
}

/** The person has read that a space ended: it is not listed again. */
export async function dismissSpaceEnding(appId: string, spaceId: string): Promise<void> {
  await apiSend(
    'DELETE',
    `${appSpaces(appId)}/ended/${encodeURIComponent(spaceId)}`,
    undefined,
    done,
  );
}

export async function createSpace(appId: string, name: string): Promise<SpaceSummary> {
  return (await apiSend('POST', appSpaces(appId), { id: createId(), name }, spaceResponseSchema))
    .space;
}

export function fetchSpace(spaceId: string): Promise<SpaceDetail> {
  return apiGet(space(spaceId), spaceDetailResponseSchema);
}

export async function renameSpace(spaceId: string, name: string): Promise<SpaceSummary> {
  return (await apiSend('PATCH', space(spaceId), { name }, spaceResponseSchema)).space;
}

export async function deleteSpace(spaceId: string): Promise<void> {
  await apiSend('DELETE', space(spaceId), undefined, done);
}

export async function setSpaceMember(
  spaceId: string,
  username: string,
  role: SpaceGrantableRole,
): Promise<void> {
  await apiSend(
    'PUT',
    `${space(spaceId)}/members/${encodeURIComponent(username)}`,
    { role },
    spaceMemberResponseSchema,
  );
}

/** The owner removes someone, or a member leaves (their own username). */
export async function removeSpaceMember(spaceId: string, username: string): Promise<void> {
  await apiSend(
    'DELETE',
    `${space(spaceId)}/members/${encodeURIComponent(username)}`,
    undefined,
    done,
  );
}

export function createSpaceInvite(spaceId: string, role: SpaceGrantableRole, days: number) {
  return apiSend(
    'POST',
    `${space(spaceId)}/invites`,
    { role, days },
    createSpaceInviteResponseSchema,
  );
}

export async function revokeSpaceInvite(spaceId: string, inviteId: string): Promise<void> {
  await apiSend(
    'DELETE',
    `${space(spaceId)}/invites/${encodeURIComponent(inviteId)}`,
    undefined,
    done,
  );
}

export async function previewSpaceInvite(
  token: string,
): Promise<{ invite: SpaceInvitePreview; standing: SpaceInviteStanding }> {
  return apiGet(invite(token), spaceInvitePreviewSchema);
}

export async function acceptSpaceInvite(token: string): Promise<SpaceSummary> {
  return (
    await apiSend('POST', `${invite(token)}/accept`, undefined, acceptSpaceInviteResponseSchema)
  ).space;
}

/** The person's choice for a space's activity (docs/product/reminders.md#space-activity). */
export function fetchSpaceNotifications(spaceId: string): Promise<SpaceActivitySettings> {
  return apiGet(`${space(spaceId)}/notifications`, spaceActivitySettingsSchema);
}

export function setSpaceNotifications(
  spaceId: string,
  choice: SpaceActivityChoice,
): Promise<SpaceActivitySettings> {
  return apiSend('PUT', `${space(spaceId)}/notifications`, choice, spaceActivitySettingsSchema);
}

/** Every space whose activity the person turned on, for account settings. */
export function fetchSpaceNotificationList(): Promise<SpaceActivityList> {
  return apiGet('/api/account/space-notifications', spaceActivityListSchema);
}
