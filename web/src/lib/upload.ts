import { ApiError, apiError, type ErrorBody } from './api-error.ts';
import { authHeaders, requestHeaders, unauthorized } from './session.ts';

/** Upload progress of one file: bytes sent of total. */
export type OnProgress = (sent: number, total: number) => void;

/** What the server answered for an uploaded file. */
export interface Uploaded {
  id?: string;
  key: string;
  filename?: string;
  status: string;
}

interface PresignAnswer {
  supported: boolean;
  key?: string;
  url?: string;
  method?: 'PUT';
  headers?: Record<string, string>;
}

// Learned once per page: the local folder bucket answers 501 and every file then goes multipart.
let presignSupported: boolean | undefined;

/**
 * Uploads one file with progress: straight to the bucket through a presigned URL where the store
 * supports it (its "object created" event starts ingestion), else multipart to `/api/documents/upload`;
 * into `collection` when one is chosen (else the server names it from the file's place).
 */
export async function uploadFile(file: File, onProgress: OnProgress, collection?: string): Promise<Uploaded> {
  if (presignSupported !== false) {
    const request = JSON.stringify({
      filename: file.name,
      size: file.size,
      contentType: file.type || undefined,
      collection,
    });
    const response = await fetch('/api/documents/upload-url', {
      method: 'POST',
      headers: { ...(await requestHeaders('POST', request)), 'Content-Type': 'application/json' },
      body: request,
    });
    const body = (await response.json().catch(() => ({}))) as PresignAnswer & ErrorBody;
    if (response.status === 401) unauthorized();
    if (response.ok && body.supported && body.url) {
      presignSupported = true;
      await send('PUT', body.url, file, body.headers ?? {}, onProgress);
      return { key: body.key ?? file.name, filename: file.name, status: 'queued' };
    }
    if (response.status === 501 || response.status === 404) presignSupported = false;
    else if (!response.ok) throw apiError(response.status, body, { message: 'Upload refused' });
  }
  const form = new FormData();
  form.append('files', file, file.name);
  // Only the local folder bucket gets here (S3 answers the presign above), so no payload hash is needed.
  const target = `/api/documents/upload${collection ? `?collection=${encodeURIComponent(collection)}` : ''}`;
  const text = await send('POST', target, form, authHeaders(), onProgress);
  const answer = JSON.parse(text) as {
    documents?: (Uploaded & ErrorBody)[];
  };
  const first = answer.documents?.[0];
  if (!first) throw new ApiError(500, 'bad_answer', 'The server accepted the upload but listed no document');
  // Refused on its own (its name or its place in the bucket): shown like any refused upload.
  if (first.status === 'rejected') {
    throw apiError(400, first, { code: 'validation_failed', message: 'Upload refused' });
  }
  return first;
}

function send(
  method: string,
  url: string,
  body: XMLHttpRequestBodyInit,
  headers: Record<string, string>,
  onProgress: OnProgress,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(xhr.responseText);
      // Only the API answers 401 (a presigned bucket URL answers 403).
      if (xhr.status === 401) unauthorized();
      let parsed: ErrorBody = {};
      try {
        parsed = JSON.parse(xhr.responseText) as ErrorBody;
      } catch {
        // not JSON (a bucket's XML error): keep the status line
      }
      reject(apiError(xhr.status, parsed, { message: `${xhr.status} ${xhr.statusText}` }));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'The upload could not reach the server'));
    xhr.send(body);
  });
}
