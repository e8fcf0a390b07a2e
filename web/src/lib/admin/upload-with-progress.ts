import type { z } from 'zod';
import { ApiError, errorMessageOf } from '@everest/core/client';
import { getStoredToken } from '../session-storage';

/**
 * POSTs a multipart body through XMLHttpRequest, because fetch reports no upload progress and a
 * 10 MB report or photo on a slow line takes long enough that the administrator must see it
 * move. It keeps the API client's rules: bearer token,
 * cookies, the spec's error message order, and the answer checked against the contract.
 */
export function uploadWithProgress<A extends z.ZodType>(
  path: string,
  body: FormData,
  answer: A,
  onProgress?: (fraction: number) => void,
  headers: Readonly<Record<string, string>> = {},
): Promise<z.infer<A>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getStoredToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'Could not reach the server. Please check your connection and try again.'));
    xhr.onload = () => {
      const text = xhr.responseText;
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, errorMessageOf(xhr.status, xhr.statusText, text)));
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        reject(new ApiError(xhr.status, 'The server sent an answer that could not be read.', { cause: error }));
        return;
      }
      const parsed = answer.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else reject(new ApiError(xhr.status, `The server's answer to ${path} does not match the contract.`, { cause: parsed.error }));
    };
    xhr.send(body);
  });
}
