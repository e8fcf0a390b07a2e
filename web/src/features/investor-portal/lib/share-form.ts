// The 'Share access' form's model: what it holds, what a new share starts with, and the body it
// asks the contract to accept; the dialog (components/share-access-dialog.tsx) draws it.

import type { z } from 'zod';
import type { createShareBody, PersonalScope, PropertyScope } from '@everest/core/contract';
import { documentCategories, type DocumentCategory } from '@everest/core/domain';

/** A share as the form holds it, before the owner's proof is added. */
export interface ShareDraft {
  body: Omit<z.infer<typeof createShareBody>, 'currentPassword' | 'code'>;
  /** The chosen properties by name, for the confirmation's sentence. */
  chosenProperties: { id: number; name: string }[];
}

export interface ShareForm {
  email: string;
  personalScope: PersonalScope;
  categories: DocumentCategory[];
  propertyScope: PropertyScope;
  propertyIds: number[];
  endsOn: string;
  notify: boolean;
  note: string;
}

export type FormKey = keyof ShareForm;

/**
 * decided: a new share starts with the least a share usually needs, tax documents and no property
 * documents (the K-1s an accountant asks for); the investor widens it on purpose.
 */
export const emptyForm: ShareForm = {
  email: '',
  personalScope: 'categories',
  categories: ['tax'],
  propertyScope: 'none',
  propertyIds: [],
  endsOn: '',
  notify: false,
  note: '',
};

export function formOf(draft: ShareDraft | null): ShareForm {
  if (!draft) return emptyForm;
  const { body } = draft;
  return {
    email: body.email,
    personalScope: body.personalScope,
    categories: [...body.categories],
    propertyScope: body.propertyScope,
    propertyIds: [...body.propertyIds],
    endsOn: body.endsOn ?? '',
    notify: body.notify,
    note: body.note ?? '',
  };
}

/** What the form asks the contract to accept, before the owner's proof is added. */
export function shareBodyOf(form: ShareForm) {
  return {
    email: form.email,
    personalScope: form.personalScope,
    // The contract wants the lists empty unless their scope chooses from them.
    categories: form.personalScope === 'categories' ? documentCategories.filter((c) => form.categories.includes(c)) : [],
    propertyScope: form.propertyScope,
    propertyIds: form.propertyScope === 'properties' ? form.propertyIds : [],
    endsOn: form.endsOn || null,
    notify: form.notify,
    note: form.note.trim() || undefined,
  };
}
