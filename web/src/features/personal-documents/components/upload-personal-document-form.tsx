import { useRef, useState, type FormEvent } from 'react';
import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { uploadPersonalDocumentBody, type UploadPersonalDocumentBody, type PersonalDocumentAnswer } from '@everest/core/contract';
import { documentCategoryLabels, portalMessages } from '@everest/core/domain';
import { useUploadPersonalDocument } from '../api/upload-personal-document';
import { isInvestorEmailed } from '../../../lib/admin/api/document-recipients';
import { adminNotices, adminSuccess, emailingTexts } from '../../../lib/admin/admin-messages';
import { checkDocumentFile } from '../../../lib/admin/document-rules';
import { focusField } from '../../../lib/admin/focus-field';
import { SubmissionKey } from '../../../lib/admin/idempotency';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { showToast } from '../../../lib/toast';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { PersonalDocumentFields, emptyDetails, type PersonalDocumentDetails } from './personal-document-fields';
import { UploadForm } from '../../../components/admin/upload-form';
import { UserPicker } from '../../../components/admin/user-picker';

type ErrorKey = 'userEmail' | 'title' | 'documentCategory' | 'document';

/** An upload waiting for the administrator's yes to its e-mail. */
interface Pending {
  fields: UploadPersonalDocumentBody;
  file: File;
}
const errorOrder: ErrorKey[] = ['userEmail', 'title', 'documentCategory', 'document'];

/**
 * Individual upload of a personal document (spec: user-documents): user, category, title,
 * description, date, tags, file and notification. An upload whose content the investor already
 * has publishes nothing (DECISIONS.md): the form says so where it stays visible, not only in a
 * toast that goes away.
 */
export function UploadPersonalDocumentForm() {
  const styles = useAdminStyles();
  const upload = useUploadPersonalDocument();
  const [userEmail, setUserEmail] = useState('');
  // The chosen account cannot sign in: said before anything is sent, as the bulk upload refuses its rows.
  const [deactivated, setDeactivated] = useState(false);
  const [details, setDetails] = useState<PersonalDocumentDetails>(emptyDetails);
  const [emailNotification, setEmailNotification] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [errors, setErrors] = useState<Partial<Record<ErrorKey, string>>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<PersonalDocumentAnswer | null>(null);
  const [confirming, setConfirming] = useState<Pending | null>(null);
  const [counting, setCounting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // One Idempotency-Key per submission, so that a retry never publishes (and e-mails) twice: the same when Upload is pressed again after a
  // lost answer; any change to the form makes the next submit a new one.
  const submissionKey = useRef(new SubmissionKey());

  const clearErrors = (keys: string[]) => {
    submissionKey.current.reset();
    setErrors((previous) => {
      const next = { ...previous };
      for (const key of keys) delete next[key as ErrorKey];
      return next;
    });
  };

  const chooseFile = (input: HTMLInputElement) => {
    const chosen = input.files?.[0] ?? null;
    clearErrors(['document']);
    setFile(null);
    if (!chosen) return;
    const problem = checkDocumentFile(chosen);
    if (problem) {
      showToast({ ...problem, variant: 'destructive' });
      setErrors((previous) => ({ ...previous, document: problem.description }));
      input.value = '';
      return;
    }
    setFile(chosen);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending || counting) return;
    setOutcome(null);
    const parsed = uploadPersonalDocumentBody.safeParse({
      userEmail,
      documentCategory: details.documentCategory || undefined,
      title: details.title.trim(),
      description: details.description.trim() || undefined,
      documentDate: details.documentDate || undefined,
      tags: details.tags.trim() || undefined,
      emailNotification,
      uploadType: 'individual',
    });
    const found: Partial<Record<ErrorKey, string>> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) found[issue.path[0] as ErrorKey] ??= issue.message;
    if (!file) found.document = adminNotices.chooseFile;
    const first = errorOrder.find((key) => found[key]);
    if (first || !parsed.success || !file) {
      setErrors(found);
      if (first) focusField(formRef.current, first);
      return;
    }
    if (!emailNotification) {
      send({ fields: parsed.data, file });
      return;
    }
    // The e-mail goes to the investor only if the account is active; say so first.
    const email = parsed.data.userEmail;
    setCounting(true);
    isInvestorEmailed(email)
      .then((emailed) => {
        if (emailed) setConfirming({ fields: parsed.data, file });
        else send({ fields: parsed.data, file });
      })
      .catch((error: unknown) => notifyFailure(emailingTexts.countFailed, error))
      .finally(() => setCounting(false));
  };

  const send = ({ fields, file: chosen }: Pending) => {
    setProgress(0);
    upload.mutate(
      { fields, file: chosen, idempotencyKey: submissionKey.current.current(), onProgress: setProgress },
      {
        onSuccess: (answer) => {
          setConfirming(null);
          submissionKey.current.reset();
          setOutcome(answer);
          if (answer.alreadyPublished) {
            notifySuccess(adminSuccess.personalDocumentAlreadyPublished, answer.message);
            return;
          }
          notifySuccess(adminSuccess.personalDocumentUploaded, `${answer.document.title} was published for ${answer.document.userEmail}.`);
          // The user stays chosen: several papers of one investor often go one after another.
          setDetails(emptyDetails);
          setFile(null);
          setFileKey((k) => k + 1);
        },
        onError: (error) => {
          setConfirming(null);
          notifyFailure(portalMessages.personalDocumentUploadFailed, error);
        },
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <UploadForm
      title="Upload User Document"
      titleId="upload-user-document-title"
      formRef={formRef}
      onSubmit={submit}
      fileError={errors.document}
      fileKey={fileKey}
      onFile={chooseFile}
      notificationLabel="Send an email notification to the investor"
      notification={emailNotification}
      onNotification={(checked) => {
        submissionKey.current.reset();
        setEmailNotification(checked);
      }}
      progress={progress}
      outcome={
        outcome && (
          <MessageBar intent={outcome.alreadyPublished ? 'warning' : 'success'}>
            <MessageBarBody>
              <MessageBarTitle>
                {outcome.alreadyPublished ? adminSuccess.personalDocumentAlreadyPublished : adminSuccess.personalDocumentUploaded}
              </MessageBarTitle>
              {outcome.alreadyPublished
                ? `${outcome.message} Nothing new was published: ${outcome.document.userEmail} already has this file as "${outcome.document.title}" (${documentCategoryLabels[outcome.document.documentCategory]}).`
                : `"${outcome.document.title}" is now in ${outcome.document.userEmail}'s ${documentCategoryLabels[outcome.document.documentCategory]}.`}
            </MessageBarBody>
          </MessageBar>
        )
      }
      uploading={upload.isPending}
      counting={counting}
      confirm={{
        title: confirming ? emailingTexts.willEmail(1) : null,
        confirmLabel: 'Upload and Send E-mail',
        onConfirm: () => confirming && send(confirming),
        onCancel: () => setConfirming(null),
        children: confirming && (
          <p>
            {`"${confirming.fields.title}" will be published for ${confirming.fields.userEmail}, who is sent an e-mail about it. Nothing is uploaded or sent if you cancel.`}
          </p>
        ),
      }}
    >
      <UserPicker
        value={userEmail}
        validationMessage={errors.userEmail}
        onChange={(email, user) => {
          setUserEmail(email);
          setDeactivated(user?.isActive === false);
          clearErrors(['userEmail']);
        }}
      />
      {deactivated && (
        <MessageBar intent="warning" className={styles.wide} data-testid="deactivated-warning">
          <MessageBarBody>
            <MessageBarTitle>Account deactivated</MessageBarTitle>
            {adminNotices.deactivatedOwner(userEmail)}
          </MessageBarBody>
        </MessageBar>
      )}
      <PersonalDocumentFields
        details={details}
        errors={errors}
        onChange={(patch) => {
          setDetails((previous) => ({ ...previous, ...patch }));
          clearErrors(Object.keys(patch));
        }}
      />
    </UploadForm>
  );
}
