import { useRef, useState, type FormEvent } from 'react';
import { Button, Checkbox, Field, Input, ProgressBar } from '@fluentui/react-components';
import { uploadDocumentBody, type PropertyDocument } from '@everest/core/contract';
import {
  defaultPropertyGroup,
  defaultQuarter,
  defaultUploadYear,
  documentAccept,
  fieldMax,
  portalMessages,
  type Quarter,
} from '@everest/core/domain';
import { useUploadDocument } from '../api/upload-document';
import { adminNotices, adminSuccess } from '../lib/admin-messages';
import { checkDocumentFile } from '../lib/document-rules';
import { focusField } from '../lib/focus-field';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { showToast } from '../../../lib/toast';
import { useAdminStyles } from './admin-styles';
import { PlacementFields } from './document-fields';

interface UploadForm {
  title: string;
  property: string;
  year: number;
  quarter: Quarter;
  emailNotification: boolean;
}

const emptyForm = (): UploadForm => ({
  title: '',
  property: defaultPropertyGroup,
  year: defaultUploadYear(),
  quarter: defaultQuarter,
  emailNotification: false,
});

type ErrorKey = 'title' | 'property' | 'year' | 'quarter' | 'document';

/** Upload Document (spec: documents tab): title, property, year, quarter, file, notification. */
export function UploadDocumentForm({ onUploaded }: { onUploaded?: (document: PropertyDocument) => void }) {
  const styles = useAdminStyles();
  const upload = useUploadDocument();
  const [form, setForm] = useState<UploadForm>(emptyForm);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Partial<Record<ErrorKey, string>>>({});
  const [progress, setProgress] = useState<number | null>(null);
  // A new key empties the native file input after an upload (its value cannot be set).
  const [fileKey, setFileKey] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  const change = (patch: Partial<UploadForm>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setErrors((previous) => {
      const next = { ...previous };
      for (const key of Object.keys(patch)) delete next[key as ErrorKey];
      return next;
    });
  };

  const chooseFile = (input: HTMLInputElement) => {
    const chosen = input.files?.[0] ?? null;
    setErrors(({ document: _, ...rest }) => rest);
    if (!chosen) {
      setFile(null);
      return;
    }
    const problem = checkDocumentFile(chosen);
    if (problem) {
      showToast({ ...problem, variant: 'destructive' });
      setErrors((previous) => ({ ...previous, document: problem.description }));
      input.value = '';
      setFile(null);
      return;
    }
    setFile(chosen);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    const parsed = uploadDocumentBody.safeParse({ ...form, title: form.title.trim() });
    const found: Partial<Record<ErrorKey, string>> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as ErrorKey;
        found[key] ??= issue.message;
      }
    }
    if (!file) found.document = adminNotices.chooseFile;
    const order: ErrorKey[] = ['title', 'property', 'year', 'quarter', 'document'];
    const first = order.find((key) => found[key]);
    if (first || !parsed.success || !file) {
      setErrors(found);
      if (first) focusField(formRef.current, first);
      return;
    }
    setProgress(0);
    upload.mutate(
      { fields: parsed.data, file, onProgress: setProgress },
      {
        onSuccess: (answer) => {
          notifySuccess(
            adminSuccess.documentUploaded,
            `${answer.document.title} was published under ${answer.document.property}, ${answer.document.quarter} ${answer.document.year}.`,
          );
          // Property, year and quarter stay: a quarter's reports are uploaded one after another.
          setForm((previous) => ({ ...previous, title: '' }));
          setFile(null);
          setFileKey((k) => k + 1);
          onUploaded?.(answer.document);
        },
        onError: (error) => notifyFailure(portalMessages.documentUploadFailed, error),
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <section className={styles.section} aria-labelledby="upload-document-title">
      <h3 id="upload-document-title" className={styles.sectionTitle}>
        Upload Document
      </h3>
      <form ref={formRef} className={styles.form} onSubmit={submit} noValidate aria-labelledby="upload-document-title">
        <div className={styles.fieldGrid}>
          <Field label="Title" required validationMessage={errors.title}>
            <Input
              name="title"
              autoComplete="off"
              maxLength={fieldMax.title}
              value={form.title}
              onChange={(_, data) => change({ title: data.value })}
            />
          </Field>
          <PlacementFields
            property={form.property}
            year={form.year}
            quarter={form.quarter}
            errors={errors}
            onChange={change}
          />
          <Field
            label="File"
            required
            hint="PDF, DOC, DOCX, XLS or XLSX, up to 10 MB"
            validationMessage={errors.document}
            className={styles.wide}
          >
            {(props) => (
              <input
                {...props}
                key={fileKey}
                name="document"
                type="file"
                accept={documentAccept}
                onChange={(event) => chooseFile(event.currentTarget)}
              />
            )}
          </Field>
          <Checkbox
            className={styles.wide}
            label="Send an email notification to the investors who can see this document"
            checked={form.emailNotification}
            onChange={(_, data) => change({ emailNotification: data.checked === true })}
          />
        </div>
        {progress !== null && (
          <Field label="Uploading document" validationState="none" hint={`${Math.round(progress * 100)}%`}>
            <ProgressBar value={progress} max={1} />
          </Field>
        )}
        <div className={styles.buttons}>
          <Button type="submit" appearance="primary" disabledFocusable={upload.isPending}>
            {upload.isPending ? 'Uploading...' : 'Upload Document'}
          </Button>
        </div>
      </form>
    </section>
  );
}
