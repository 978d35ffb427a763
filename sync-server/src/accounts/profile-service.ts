import {
  AVATAR_UPLOAD_MAX_BYTES,
  AVATAR_UPLOAD_TYPES,
  createId,
  type UpdateProfileRequest,
} from '@pipit/protocol';
import { ServiceError } from '../service-error';
import { ConflictError, type Storage, type UserRecord } from '../storage/types';
import type { Clock } from './clock';
import { describeDevice } from './client-info';
import { prepareUpload } from './image-decoding';
import type { Authenticated } from './sessions';
import { toAccount } from './views';

/** docs/product/quotas.md, free plan: 20 MB of uploads per person. */
export const UPLOAD_QUOTA_BYTES = 20 * 1024 * 1024;
export const AVATAR_SIZE_PX = 256;

const unreadableAvatar = () =>
  new ServiceError('validation_failed', 'That file isn’t an image we can read. Try another.', {
    fields: { avatar: 'That file isn’t an image we can read.' },
  });

const overQuota = () =>
  new ServiceError(
    'payload_too_large',
    `That would take your uploads past the ${UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of your plan. Remove some images from your apps first, or choose an emoji avatar.`,
  );

export function createProfileService(deps: {
  storage: Storage;
  clock: Clock;
  releaseHeldUsername: (username: string) => Promise<boolean>;
}) {
  const { storage, clock } = deps;

  async function removeImageAvatar(user: UserRecord): Promise<void> {
    const match =
      user.avatar.kind === 'image'
        ? /^\/api\/uploads\/([a-z2-7]{26})$/.exec(user.avatar.url)
        : null;
    if (match?.[1]) await storage.uploads.delete(match[1]);
  }

  /** Pinned apps must be the person's own (repeats dropped); anything else changes nothing. */
  async function ownApps(auth: Authenticated, patch: UpdateProfileRequest): Promise<string[]> {
    const ids = [...new Set(patch.pinnedAppIds)];
    const apps = await Promise.all(ids.map((id) => storage.apps.get(id)));
    if (apps.some((app) => app?.ownerId !== auth.user.id)) {
      throw new ServiceError('validation_failed', 'You can pin only apps you made.', {
        fields: { pinnedAppIds: 'You can pin only apps you made.' },
      });
    }
    return ids;
  }

  return {
    async updateProfile(auth: Authenticated, patch: UpdateProfileRequest): Promise<UserRecord> {
      if (patch.username && patch.username !== auth.user.username) {
        await deps.releaseHeldUsername(patch.username);
      }
      const pinnedAppIds = patch.pinnedAppIds ? await ownApps(auth, patch) : undefined;
      try {
        // A new username puts the old one on hold from now, as a deletion would: no one else can
        // take it and be mistaken for this person (or inherit anything tied to the name).
        const updated = await storage.users.update(
          auth.user.id,
          pinnedAppIds ? { ...patch, pinnedAppIds } : patch,
          clock.now(),
        );
        if (patch.avatar) await removeImageAvatar(auth.user);
        return updated;
      } catch (error) {
        if (error instanceof ConflictError) {
          throw new ServiceError('username_taken', 'That username is taken. Try another.', {
            fields: { username: 'That username is taken.' },
          });
        }
        throw error;
      }
    },

    /**
     * An uploaded avatar is decoded and re-encoded (a 256 px square WebP, EXIF and anything else
     * dropped), never stored as sent (docs/library-notes.md#security). Everything that can refuse
     * it without decoding it does so first, as for an app's images (portable/images.ts): its
     * declared type and size, the person's quota (from the bytes received), its header — the
     * format the bytes are (an SVG sent as `image/png` is an SVG, and is refused), its pixels —
     * and the person's hourly decoding budget; only then is it decoded, no more pixels than its
     * header declared. The quota's final say is the insert's (UploadStore.insertWithinQuota), with
     * the bytes as kept: atomic per person. The rate limit (`avatarUploadsPerAccount`) is counted by the route, before
     * the body is read.
     */
    async setAvatarImage(
      auth: Authenticated,
      contentType: string,
      bytes: Uint8Array,
    ): Promise<UserRecord> {
      const image = await prepareUpload(
        { storage, clock },
        {
          contentType,
          bytes,
          quotaOwnerId: auth.user.id,
          uploaderId: auth.user.id,
          quotaBytes: UPLOAD_QUOTA_BYTES,
        },
        {
          acceptedTypes: AVATAR_UPLOAD_TYPES,
          maxBytes: AVATAR_UPLOAD_MAX_BYTES,
          noun: 'avatars',
          unreadable: unreadableAvatar,
          overQuota,
          size: { side: AVATAR_SIZE_PX, fit: 'cover' },
        },
      );
      // The quota again, with the bytes as kept, where they are written: one transaction holding
      // the person while it sums and inserts, so avatars and images sent together take turns.
      const id = createId();
      const stored = await storage.uploads.insertWithinQuota(
        {
          id,
          userId: auth.user.id,
          contentType: image.contentType,
          bytes: image.bytes,
          createdAt: clock.now(),
        },
        UPLOAD_QUOTA_BYTES,
      );
      if (!stored) throw overQuota();
      await removeImageAvatar(auth.user);
      return storage.users.update(auth.user.id, {
        avatar: { kind: 'image', url: `/api/uploads/${id}` },
      });
    },

    /**
     * "Export all my data": the account's part of it, as JSON — the `.pipit` file adds every app
     * the person owns, with their data (sync-server/src/portable/export.ts).
     */
    async exportData(auth: Authenticated) {
      const sessions = await storage.sessions.listForUser(auth.user.id);
      return {
        format: 'pipit-account',
        version: 1,
        exportedAt: new Date(clock.now()).toISOString(),
        account: toAccount(auth.user),
        sessions: sessions.map((s) => ({
          device: describeDevice(s.userAgent),
          ip: s.ip,
          createdAt: new Date(s.createdAt).toISOString(),
          lastSeenAt: new Date(s.lastSeenAt).toISOString(),
        })),
      };
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
