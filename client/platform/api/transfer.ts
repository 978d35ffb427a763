import { apiErrorSchema } from '@pipit/protocol';
import { parse as parseWith } from 'zod/mini';
import type { $ZodType, output } from 'zod/v4/core';
import { ApiRequestError, OfflineError } from './request';

/*
 * Files to and from /api with the same rules as request.ts (same-origin credentials, errors as
 * ApiRequestError, no connection as OfflineError), for what fetch cannot do: an upload that says
 * how far it got (XMLHttpRequest reports upload progress; fetch does not), and a download kept as
 * a file.
 */

function errorOf(status: number, text: string): ApiRequestError {
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's page, say. The status still says what happened.
  }
  const body = apiErrorSchema.safeParse(json);
  return new ApiRequestError(
    status,
    body.success
      ? body.data.error
      : { code: 'internal', message: `The server answered ${status}.` },
  );
}

/**
 * POSTs a file as the request body (an image, a `.pipit` file) and parses the answer with its
 * protocol schema. `onProgress` hears the share sent so far, 0 to 1.
 */
export function uploadFile<T extends $ZodType>(
  path: string,
  file: Blob,
  schema: T,
  options: { type?: string; onProgress?: (sent: number) => void } = {},
): Promise<output<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', options.type ?? (file.type || 'application/octet-stream'));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new OfflineError());
    xhr.onabort = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(errorOf(xhr.status, xhr.responseText));
        return;
      }
      try {
        resolve(parseWith(schema, JSON.parse(xhr.responseText || '{}')));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.send(file);
  });
}

/** The file name a download's Content-Disposition gives (its UTF-8 form first). */
function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Fall back to the plain name.
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
}

/** GETs a file under /api: its bytes and the name the server gives it. */
export async function downloadFile(path: string): Promise<{ blob: Blob; fileName: string | null }> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new OfflineError();
  }
  if (!response.ok) throw errorOf(response.status, await response.text());
  return {
    blob: await response.blob(),
    fileName: fileNameOf(response.headers.get('Content-Disposition')),
  };
}
