import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, errorMessageOf, type CallInput } from '@everest/core/client';
import { routes, type PropertyAnswer } from '@everest/core/contract';
import { getStoredToken } from '../../../lib/session-storage';
import { api } from '../../../lib/api';
import { adminKeys } from './query-keys';

export type UpdatePropertyFields = Exclude<CallInput<'updateProperty'>['body'], FormData>;

export interface UpdatePropertyInput {
  fields: UpdatePropertyFields;
  /** A new photo: the body goes as multipart with the file under `image`. */
  image?: File | null;
  /** Share of the photo sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/**
 * POST /api/admin/update-property: JSON, or multipart when a photo is attached. The multipart
 * request goes through XMLHttpRequest because fetch reports no upload progress, and a 9 MB
 * photo from a phone takes long enough on a slow line that the administrator must see it move.
 * It keeps the client's rules: bearer token, cookies, and the spec's error message order.
 */
export function updateProperty({ fields, image, onProgress }: UpdatePropertyInput): Promise<PropertyAnswer> {
  if (!image) return api.call('updateProperty', { body: fields });
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    // The text field `image` is the current photo's path; the new file replaces it.
    if (key === 'image' || value === undefined || value === null) continue;
    form.append(key, String(value));
  }
  form.append('image', image, image.name);
  return sendWithProgress(routes.updateProperty.path, form, onProgress);
}

function sendWithProgress(path: string, body: FormData, onProgress?: (fraction: number) => void): Promise<PropertyAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getStoredToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
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
      const parsed = routes.updateProperty.answer.safeParse(json);
      if (parsed.success) resolve(parsed.data);
      else reject(new ApiError(xhr.status, `The server's answer to ${path} does not match the contract.`, { cause: parsed.error }));
    };
    xhr.send(body);
  });
}

export function useUpdateProperty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.properties }),
  });
}
