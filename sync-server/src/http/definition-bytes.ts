import { promisify } from 'node:util';
import { gunzip as gunzipCallback, gzip as gzipCallback } from 'node:zlib';
import { checkpointDefinition } from '../history/checkpoints';
import { ApiError } from './api-error';

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

/**
 * A whole definition as a device sends it beside a checkpoint's (a suggestion's, a draft's base),
 * checked as a checkpoint's is and gzipped off the event loop; refused with `refusal`, naming
 * `field`.
 */
export async function gzippedDefinition(
  value: unknown,
  field: string,
  refusal: string,
): Promise<Uint8Array> {
  const checked = checkpointDefinition(value);
  if ('problem' in checked) {
    throw new ApiError('validation_failed', refusal, { fields: { [field]: checked.problem } });
  }
  return new Uint8Array(await gzip(JSON.stringify(checked.definition)));
}

/** What gzippedDefinition kept, read back as JSON. */
export async function readGzippedJson(bytes: Uint8Array): Promise<unknown> {
  return JSON.parse((await gunzip(bytes)).toString('utf8')) as unknown;
}
