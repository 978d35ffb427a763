import { notFound } from '@tanstack/react-router';
import { type PublicProfile, publicProfileSchema } from '@pipit/protocol';
import { ApiRequestError, apiFetch } from '../../platform/api/request';

export interface LoadedProfile {
  profile: PublicProfile;
  /** The server could not be reached; the service worker answered with the copy last seen. */
  isLastSeenCopy: boolean;
}

/** Loads a public profile; an unknown (or deleted) username is a not-found, not an error. */
export async function loadProfile(username: string, signal?: AbortSignal): Promise<LoadedProfile> {
  try {
    const { data, isCachedCopy } = await apiFetch(
      `/api/profiles/${encodeURIComponent(username)}`,
      publicProfileSchema,
      signal ? { signal } : undefined,
    );
    return { profile: data, isLastSeenCopy: isCachedCopy };
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'not_found') throw notFound();
    throw error;
  }
}
