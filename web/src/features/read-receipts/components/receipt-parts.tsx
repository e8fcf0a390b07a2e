import { useState } from 'react';
import { Badge, Button, Checkbox, Spinner, useRestoreFocusTarget } from '@fluentui/react-components';
import type { RemindAnswer, RemindBody } from '@everest/core/contract';
import { formatDateTime } from '@everest/core/domain';
import { downloadReceiptCsv, type ReceiptCsvSource } from '../api/read-receipts-csv';
import { remindUnopened, useRemindUnopened } from '../api/remind-unopened';
import { adminSuccess, emailingTexts, readReceiptTexts } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { EmailConfirmDialog } from '../../../components/admin/email-confirm-dialog';

/**
 * 'Opened Nov 25, 2026, 9:14 AM' with the first and last times, or a 'Not opened' badge; and
 * who opened it on the investor's behalf through a share.
 */
export function OpenedCell({
  firstOpenedAt,
  lastOpenedAt,
  opens,
  openedBy = [],
}: {
  firstOpenedAt: string | null;
  lastOpenedAt: string | null;
  opens: number;
  openedBy?: { email: string; name: string }[];
}) {
  const styles = useAdminStyles();
  if (!firstOpenedAt) {
    return (
      <Badge appearance="tint" color="warning">
        Not opened
      </Badge>
    );
  }
  return (
    <div className={styles.cellStack}>
      <span>{`First ${formatDateTime(firstOpenedAt)}`}</span>
      {opens > 1 && <span className={styles.muted}>{`Last ${formatDateTime(lastOpenedAt)} · ${opens} times`}</span>}
      {openedBy.length > 0 && (
        <span className={styles.muted} data-testid="opened-by">{`On their behalf by ${openedBy.map((p) => p.name || p.email).join(', ')}`}</span>
      )}
    </div>
  );
}

/** The 'Not opened only' filter of a read-receipt list. */
export function NotOpenedFilter({ checked, onChange, label }: { checked: boolean; onChange: (checked: boolean) => void; label: string }) {
  return <Checkbox label={label} checked={checked} onChange={(_, data) => onChange(data.checked === true)} />;
}

export interface RemindButtonProps {
  label: string;
  body: RemindBody;
  /** Nothing to remind of: everyone opened it. */
  disabled: boolean;
  lastRemindedAt: string | null;
}

/** 'n investors' / 'n unopened documents': the reminder's words for its counts. */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The reminder's own sentence from its counts: the documents it names are
 * counted once each (`distinctDocuments`), not once per investor reminded of them.
 */
export function reminderSummary(answer: RemindAnswer): string {
  const documents = answer.distinctDocuments ?? answer.remindedDocuments;
  const sent =
    answer.remindedInvestors === 0
      ? 'Nobody was reminded.'
      : `Reminded ${counted(answer.remindedInvestors, 'investor', 'investors')} of ${counted(documents, 'unopened document', 'unopened documents')}.`;
  const skipped = answer.skippedRecent > 0 ? ` ${counted(answer.skippedRecent, 'reminder was', 'reminders were')} left out: sent within the last 7 days.` : '';
  return `${sent}${skipped}`;
}

/**
 * Reminds by e-mail whoever has not opened the chosen documents, and says when the last reminder
 * went. The server skips whoever was reminded of a document within 7 days, and says so.
 * The button first asks the server who would be reminded (`dryRun`) and says
 * "This will e-mail N people"; only Send Reminders sends. Nobody to remind: it says so at once.
 */
export function RemindButton({ label, body, disabled, lastRemindedAt }: RemindButtonProps) {
  const styles = useAdminStyles();
  const remind = useRemindUnopened();
  const [counting, setCounting] = useState(false);
  const [planned, setPlanned] = useState<RemindAnswer | null>(null);
  const restoreFocusTarget = useRestoreFocusTarget();
  const ask = () => {
    if (counting || remind.isPending) return;
    setCounting(true);
    remindUnopened({ ...body, dryRun: true })
      .then((answer) => {
        if (answer.remindedInvestors === 0) notifySuccess(adminSuccess.nobodyReminded, reminderSummary(answer));
        else setPlanned(answer);
      })
      .catch((error: unknown) => notifyFailure(readReceiptTexts.remindFailed, error))
      .finally(() => setCounting(false));
  };
  const send = () =>
    remind.mutate(body, {
      onSuccess: (answer) => {
        setPlanned(null);
        notifySuccess(answer.remindedInvestors > 0 ? adminSuccess.reminderSent : adminSuccess.nobodyReminded, reminderSummary(answer));
      },
      onError: (error) => {
        setPlanned(null);
        notifyFailure(readReceiptTexts.remindFailed, error);
      },
    });
  return (
    <div className={styles.buttons}>
      <Button {...restoreFocusTarget} appearance="primary" disabled={disabled} disabledFocusable={remind.isPending || counting} onClick={ask}>
        {remind.isPending ? 'Sending reminders...' : counting ? emailingTexts.counting : label}
      </Button>
      <span className={styles.muted} aria-live="polite" data-testid="last-reminder">
        {lastRemindedAt ? `Last reminder sent ${formatDateTime(lastRemindedAt)}` : 'No reminder sent yet'}
      </span>
      <EmailConfirmDialog
        title={planned ? emailingTexts.willEmail(planned.remindedInvestors) : null}
        confirmLabel="Send Reminders"
        pendingLabel="Sending reminders..."
        pending={remind.isPending}
        onConfirm={send}
        onCancel={() => setPlanned(null)}
      >
        {planned && (
          <p>
            {`Each of ${counted(planned.remindedInvestors, 'investor', 'investors')} gets one e-mail naming the unopened documents (${counted(planned.distinctDocuments ?? planned.remindedDocuments, 'document', 'documents')} in all).`}
            {planned.skippedRecent > 0 ? ` ${counted(planned.skippedRecent, 'reminder is', 'reminders are')} left out: sent within the last 7 days.` : ''}
            {' Nothing is sent if you cancel.'}
          </p>
        )}
      </EmailConfirmDialog>
    </div>
  );
}

/** 'Export CSV': every row of the view, not only the page shown. */
export function ExportCsvButton({ source }: { source: ReceiptCsvSource }) {
  const [pending, setPending] = useState(false);
  const run = () => {
    setPending(true);
    downloadReceiptCsv(source)
      .catch((error: unknown) => notifyFailure(readReceiptTexts.exportFailed, error))
      .finally(() => setPending(false));
  };
  return (
    <Button onClick={run} disabled={pending} icon={pending ? <Spinner size="tiny" /> : undefined}>
      Export CSV
    </Button>
  );
}
