import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import { routes, type PropertyAnswer } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { uploadWithProgress } from '../../../lib/admin/upload-with-progress';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export type UpdatePropertyFields = Exclude<CallInput<'updateProperty'>['body'], FormData>;

export interface UpdatePropertyInput {
  fields: UpdatePropertyFields;
  /** A new photo: the body goes as multipart with the file under `image`. */
  image?: File | null;
  /** Share of the photo sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/**
 * POST /api/admin/update-property: JSON, or multipart with progress when a photo is attached
 * (a 9 MB photo from a phone takes long enough on a slow line that the administrator must see
 * it move).
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
  return uploadWithProgress(routes.updateProperty.path, form, routes.updateProperty.answer, onProgress);
}

export function useUpdateProperty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.properties }),
  });
}
