import {
  type Publication,
  publicationSchema,
  type PublishProblem,
  type Visibility,
} from '@pipit/protocol';
import { apiGet, ApiRequestError, apiSend, describeError } from '../../../platform/api/request';
import { problemsFromFields } from './publish-problems';

/** The Publish panel's calls (docs/product/routes.md publishing; protocol publishing.ts). */
export const getPublication = (appId: string) =>
  apiGet(`/api/apps/${appId}/publication`, publicationSchema);

export const setVisibility = (appId: string, visibility: Visibility) =>
  apiSend('PUT', `/api/apps/${appId}/visibility`, { visibility }, publicationSchema);

export const unpublish = (appId: string) =>
  apiSend('DELETE', `/api/apps/${appId}/publication`, undefined, publicationSchema);

export type PublishOutcome =
  | { ok: true; publication: Publication }
  | { ok: false; problems: PublishProblem[] }
  | { ok: false; message: string };

/** Publishes what the server has stored as the next version; problems come back as a list. */
export async function publish(appId: string, visibility: Visibility): Promise<PublishOutcome> {
  try {
    const publication = await apiSend(
      'POST',
      `/api/apps/${appId}/versions`,
      { visibility },
      publicationSchema,
    );
    return { ok: true, publication };
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'publish_invalid') {
      const problems = error.problems ?? problemsFromFields(error.fields ?? {});
      if (problems.length > 0) return { ok: false, problems };
    }
    return { ok: false, message: describeError(error).message };
  }
}
