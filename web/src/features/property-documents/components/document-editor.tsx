import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Field, Input } from '@fluentui/react-components';
import { updateDocumentBody, type PropertyDocument } from '@everest/core/contract';
import { fieldMax, portalMessages, type Quarter } from '@everest/core/domain';
import { useUpdateDocument } from '../api/update-document';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { focusField } from '../../../lib/admin/focus-field';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { RowEditor } from '../../../components/admin/row-editor';
import { PlacementFields } from './document-fields';

type ErrorKey = 'title' | 'property' | 'year' | 'quarter';

/** Inline edit of a property document's title, property, year and quarter (spec: document edit). */
export function DocumentEditor({ document, onClose }: { document: PropertyDocument; onClose: () => void }) {
  const update = useUpdateDocument();
  const [form, setForm] = useState<{ title: string; property: string; year: number; quarter: Quarter }>({
    title: document.title,
    property: document.property,
    year: document.year,
    quarter: document.quarter,
  });
  const [errors, setErrors] = useState<Partial<Record<ErrorKey, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const titleId = `edit-document-${document.id}`;

  useEffect(() => focusField(formRef.current, 'title'), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const parsed = updateDocumentBody.safeParse({ documentId: document.id, ...form, title: form.title.trim() });
    if (!parsed.success) {
      const found: Partial<Record<ErrorKey, string>> = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as ErrorKey] ??= issue.message;
      setErrors(found);
      const first = (['title', 'property', 'year', 'quarter'] as const).find((key) => found[key]);
      if (first) focusField(formRef.current, first);
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: (answer) => {
        notifySuccess(adminSuccess.documentUpdated, `${answer.document.title} was saved.`);
        onClose();
      },
      onError: (error) => notifyFailure(portalMessages.updateFailed, error),
    });
  };

  return (
    <RowEditor
      formRef={formRef}
      titleId={titleId}
      title={`Edit ${document.title}`}
      pending={update.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <Field label="Title" required validationMessage={errors.title}>
        <Input
          name="title"
          autoComplete="off"
          maxLength={fieldMax.title}
          value={form.title}
          onChange={(_, data) => {
            setForm((previous) => ({ ...previous, title: data.value }));
            setErrors(({ title: _, ...rest }) => rest);
          }}
        />
      </Field>
      <PlacementFields
        property={form.property}
        year={form.year}
        quarter={form.quarter}
        errors={errors}
        onChange={(patch) => setForm((previous) => ({ ...previous, ...patch }))}
      />
    </RowEditor>
  );
}
