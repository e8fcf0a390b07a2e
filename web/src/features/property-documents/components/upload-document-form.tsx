import { useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Field, Input, MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { uploadDocumentBody, type DocumentAnswer, type PropertyDocument, type UploadDocumentBody } from '@everest/core/contract';
import {
  defaultPropertyGroup,
  defaultQuarter,
  defaultUploadYear,
  fieldMax,
  portalMessages,
  type Quarter,
} from '@everest/core/domain';
import { documentRecipientsQueryOptions, hasNoReader, useDocumentRecipients } from '../../../lib/admin/api/document-recipients';
import { useUploadDocument } from '../../../lib/admin/api/upload-document';
import { adminNotices, adminSuccess, emailingTexts } from '../../../lib/admin/admin-messages';
import { checkDocumentFile } from '../../../lib/admin/document-rules';
import { focusField } from '../../../lib/admin/focus-field';
import { SubmissionKey } from '../../../lib/admin/idempotency';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { showToast } from '../../../lib/toast';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { PlacementFields } from './document-fields';
import { UploadForm } from '../../../components/admin/upload-form';

interface UploadFields {
  title: string;
  property: string;
  year: number;
  quarter: Quarter;
  emailNotification: boolean;
}

const emptyForm = (): UploadFields => ({
  title: '',
  property: defaultPropertyGroup,
  year: defaultUploadYear(),
  quarter: defaultQuarter,
  emailNotification: false,
});

type ErrorKey = 'title' | 'property' | 'year' | 'quarter' | 'document';

/** An upload waiting for the administrator's yes: what it sends, and how many it e-mails. */
interface PendingUpload {
  fields: UploadDocumentBody;
  file: File;
  recipients: number;
}

/**
 * Upload Document (spec: documents tab): title, property, year, quarter, file, notification.
 * A property no investor can read is warned of as soon as it is chosen; an upload with
 * notification says how many people it will e-mail and waits for a yes; every submission
 * carries an Idempotency-Key, the same on a retry, so nothing is published twice; an answer that
 * the property already has this file says so and keeps the form.
 */
export function UploadDocumentForm({ onUploaded }: { onUploaded?: (document: PropertyDocument) => void }) {
  const styles = useAdminStyles();
  const upload = useUploadDocument();
  const [form, setForm] = useState<UploadFields>(emptyForm);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Partial<Record<ErrorKey, string>>>({});
  const [progress, setProgress] = useState<number | null>(null);
  // A new key empties the native file input after an upload (its value cannot be set).
  const [fileKey, setFileKey] = useState(0);
  const [confirming, setConfirming] = useState<PendingUpload | null>(null);
  const [counting, setCounting] = useState(false);
  const [outcome, setOutcome] = useState<DocumentAnswer | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const submissionKey = useRef(new SubmissionKey());
  const queryClient = useQueryClient();
  const readers = useDocumentRecipients(form.property || null);
  const noReader = readers.data !== undefined && hasNoReader(readers.data);

  const change = (patch: Partial<UploadFields>) => {
    submissionKey.current.reset();
    setOutcome(null);
    setForm((previous) => ({ ...previous, ...patch }));
    setErrors((previous) => {
      const next = { ...previous };
      for (const key of Object.keys(patch)) delete next[key as ErrorKey];
      return next;
    });
  };

  const chooseFile = (input: HTMLInputElement) => {
    const chosen = input.files?.[0] ?? null;
    submissionKey.current.reset();
    setOutcome(null);
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
    if (upload.isPending || counting) return;
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
    if (!parsed.data.emailNotification) {
      send({ fields: parsed.data, file, recipients: 0 });
      return;
    }
    // Counted now, not from the warning's earlier answer: access may have changed since.
    setCounting(true);
    queryClient
      .fetchQuery({ ...documentRecipientsQueryOptions(parsed.data.property), staleTime: 0 })
      .then((answer) => {
        // Nobody to e-mail: nothing to confirm (the warning above the button already says so).
        if (answer.recipients === 0) send({ fields: parsed.data, file, recipients: 0 });
        else setConfirming({ fields: parsed.data, file, recipients: answer.recipients });
      })
      .catch((error: unknown) => notifyFailure(emailingTexts.countFailed, error))
      .finally(() => setCounting(false));
  };

  const send = ({ fields, file: chosen }: PendingUpload) => {
    setProgress(0);
    upload.mutate(
      { fields, file: chosen, idempotencyKey: submissionKey.current.current(), onProgress: setProgress },
      {
        onSuccess: (answer) => {
          setConfirming(null);
          submissionKey.current.reset();
          setOutcome(answer);
          if (answer.alreadyPublished) {
            // Nothing was published or e-mailed: the form keeps its fields (another file may have been meant).
            notifySuccess(adminSuccess.documentAlreadyPublished, alreadyPublishedText(answer));
            return;
          }
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
        onError: (error) => {
          setConfirming(null);
          notifyFailure(portalMessages.documentUploadFailed, error);
        },
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <UploadForm
      title="Upload Document"
      titleId="upload-document-title"
      formRef={formRef}
      onSubmit={submit}
      fileError={errors.document}
      fileKey={fileKey}
      onFile={chooseFile}
      notificationLabel="Send an email notification to the investors who can see this document"
      notification={form.emailNotification}
      onNotification={(checked) => change({ emailNotification: checked })}
      progress={progress}
      outcome={
        outcome?.alreadyPublished && (
          <MessageBar intent="warning">
            <MessageBarBody>
              <MessageBarTitle>{adminSuccess.documentAlreadyPublished}</MessageBarTitle>
              {alreadyPublishedText(outcome)}
            </MessageBarBody>
          </MessageBar>
        )
      }
      uploading={upload.isPending}
      counting={counting}
      confirm={{
        title: confirming ? emailingTexts.willEmail(confirming.recipients) : null,
        confirmLabel: 'Upload and Send E-mails',
        onConfirm: () => confirming && send(confirming),
        onCancel: () => setConfirming(null),
        children: confirming && (
          <p>
            {`"${confirming.fields.title}" will be published under ${confirming.fields.property}, ${confirming.fields.quarter} ${confirming.fields.year}, and ${confirming.recipients} ${confirming.recipients === 1 ? 'person who can read it is' : 'people who can read it are'} sent an e-mail about it. Nothing is uploaded or sent if you cancel.`}
          </p>
        ),
      }}
    >
      <Field label="Title" required validationMessage={errors.title}>
        <Input
          name="title"
          autoComplete="off"
          maxLength={fieldMax.title}
          value={form.title}
          onChange={(_, data) => change({ title: data.value })}
        />
      </Field>
      <PlacementFields property={form.property} year={form.year} quarter={form.quarter} errors={errors} onChange={change} />
      {noReader && (
        <MessageBar intent="warning" className={styles.wide} data-testid="no-reader-warning">
          <MessageBarBody>
            <MessageBarTitle>{emailingTexts.noReader}</MessageBarTitle>
            {readers.data?.investorRelations === false
              ? `${form.property} is not shown to investors: only administrators will see a document filed under it.`
              : `No active investor has access to ${form.property}: only administrators will see a document filed under it.`}
          </MessageBarBody>
        </MessageBar>
      )}
    </UploadForm>
  );
}

/** What an upload that found the file already published says, under the form and in the toast. */
function alreadyPublishedText(answer: DocumentAnswer): string {
  const d = answer.document;
  return `Nothing new was published and nobody was e-mailed: ${d.property} already has this file as "${d.title}" (${d.quarter} ${d.year}).`;
}
