import { notFound } from '@tanstack/react-router';
import { type PublicProfile, publicProfileSchema } from '@pipit/protocol';
import { ApiRequestError, apiGet } from '../api/request';

export interface LoadedProfile {
  profile: PublicProfile;
  /** True when the device is offline: the service worker answered with the copy last seen. */
  isLastSeenCopy: boolean;
}

/** Loads a public profile; an unknown (or deleted) username is a not-found, not an error. */
export async function loadProfile(username: string, signal?: AbortSignal): Promise<LoadedProfile> {
  try {
    const profile = await apiGet(
      `/api/profiles/${encodeURIComponent(username)}`,
      publicProfileSchema,
      signal ? { signal } : undefined,
    );
    return { profile, isLastSeenCopy: !navigator.onLine };
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'not_found') throw notFound();
    throw error;
  }
}
