import { useState } from 'react';
import { Badge, Button, Checkbox, Spinner } from '@fluentui/react-components';
import type { RemindBody } from '@everest/core/contract';
import { formatDateTime } from '@everest/core/domain';
import { downloadReceiptCsv, type ReceiptCsvSource } from '../api/read-receipts-csv';
import { useRemindUnopened } from '../api/remind-unopened';
import { adminSuccess, readReceiptTexts } from '../lib/admin-messages';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { useAdminStyles } from './admin-styles';

/** 'Opened Nov 25, 2026, 9:14 AM' with the first and last times, or a 'Not opened' badge. */
export function OpenedCell({ firstOpenedAt, lastOpenedAt, opens }: { firstOpenedAt: string | null; lastOpenedAt: string | null; opens: number }) {
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

/**
 * Reminds by e-mail whoever has not opened the chosen documents, and says when the last reminder
 * went. The server skips whoever was reminded of a document within 7 days, and says so.
 */
export function RemindButton({ label, body, disabled, lastRemindedAt }: RemindButtonProps) {
  const styles = useAdminStyles();
  const remind = useRemindUnopened();
  const send = () =>
    remind.mutate(body, {
      onSuccess: (answer) => notifySuccess(answer.remindedInvestors > 0 ? adminSuccess.reminderSent : adminSuccess.nobodyReminded, answer.message),
      onError: (error) => notifyFailure(readReceiptTexts.remindFailed, error),
    });
  return (
    <div className={styles.buttons}>
      <Button appearance="primary" disabled={disabled || remind.isPending} onClick={send}>
        {remind.isPending ? 'Sending reminders...' : label}
      </Button>
      <span className={styles.muted} aria-live="polite" data-testid="last-reminder">
        {lastRemindedAt ? `Last reminder sent ${formatDateTime(lastRemindedAt)}` : 'No reminder sent yet'}
      </span>
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

/** Previous and Next under a read-receipt list, with where the page is. */
export function ReceiptPager({ label, page, totalCount, pageSize, onPage }: { label: string; page: number; totalCount: number; pageSize: number; onPage: (page: number) => void }) {
  const styles = useAdminStyles();
  const pageCount = Math.max(1, Math.ceil(totalCount / pageSize));
  const first = totalCount === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, totalCount);
  return (
    <nav className={styles.pager} aria-label={`${label} pages`}>
      <span aria-live="polite">{totalCount === 0 ? `No ${label.toLowerCase()}` : `Showing ${first}–${last} of ${totalCount} · Page ${page} of ${pageCount}`}</span>
      <div className={styles.buttons}>
        <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="small" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
