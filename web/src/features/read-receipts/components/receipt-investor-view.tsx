import { useState } from 'react';
import { Button, Spinner } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReceiptInvestorAnswer } from '@everest/core/contract';
import { formatDateTime, pageSize } from '@everest/core/domain';
import { useReceiptInvestor } from '../api/read-receipts';
import { readReceiptTexts } from '../../../lib/admin/admin-messages';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ListPager } from '../../../components/admin/list-pager';
import { ExportCsvButton, NotOpenedFilter, OpenedCell, RemindButton } from './receipt-parts';

type DocumentRow = ReceiptInvestorAnswer['documents'][number];

function DocumentCell({ document }: { document: DocumentRow }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span>{document.title}</span>
      <span className={styles.muted}>
        {`${document.documentType === 'personal' ? 'Personal' : document.context} · ${document.quarter} ${document.year}`}
      </span>
    </div>
  );
}

const column = createColumnHelper<DocumentRow>();
const columns = [
  column.display({ id: 'document', header: 'Document', cell: ({ row }) => <DocumentCell document={row.original} />, meta: { card: 'title' } }),
  column.display({ id: 'opened', header: 'Opened', cell: ({ row }) => <OpenedCell {...row.original} /> }),
  column.accessor('uploadedAt', { header: 'Published', cell: ({ getValue }) => formatDateTime(getValue()) }),
  column.accessor('lastRemindedAt', { header: 'Last reminder', cell: ({ getValue }) => formatDateTime(getValue(), '—') }),
];

/** One investor: the documents they may read, opened or not, the reminder, the CSV. */
export function ReceiptInvestorView({ userId }: { userId: number }) {
  const styles = useAdminStyles();
  const [page, setPage] = useState(1);
  const [notOpened, setNotOpened] = useState(false);
  const receipt = useReceiptInvestor(userId, page, notOpened);
  const table = useAdminTable({ data: receipt.data?.documents, columns, getRowId: (row) => `${row.documentType}-${row.id}` });
  const investor = receipt.data?.investor;
  return (
    <section className={styles.section} aria-labelledby="receipt-investor-title">
      <h3 id="receipt-investor-title" tabIndex={-1} className={styles.sectionTitle}>
        {investor ? `Read receipts: ${investor.name || investor.email}` : 'Read receipts'}
      </h3>
      {investor && (
        <p className={styles.muted} style={{ margin: 0 }}>
          {`${investor.email} · opened ${investor.openedCount} of ${investor.entitledCount} documents`}
        </p>
      )}
      {investor && (
        <div className={styles.toolbar}>
          <RemindButton
            label="Remind of every unopened document"
            body={{ userIds: [userId] }}
            disabled={investor.openedCount >= investor.entitledCount}
            lastRemindedAt={investor.lastRemindedAt}
          />
          <ExportCsvButton source={{ userId }} />
        </div>
      )}
      <div className={styles.toolbar}>
        <NotOpenedFilter
          label="Only documents not opened"
          checked={notOpened}
          onChange={(checked) => {
            setNotOpened(checked);
            setPage(1);
          }}
        />
        {receipt.isFetching && <Spinner size="tiny" label="Loading..." />}
      </div>
      {receipt.isError && !receipt.data ? (
        <div className={styles.buttons} role="alert">
          <span className={styles.alert}>{`${readReceiptTexts.loadFailed}: ${receipt.error.message}`}</span>
          <Button onClick={() => void receipt.refetch()}>Try again</Button>
        </div>
      ) : (
        <AdminTable
          table={table}
          label="Documents"
          empty={receipt.isPending ? 'Loading...' : notOpened ? 'Every document has been opened.' : 'No documents for this investor.'}
        />
      )}
      <ListPager label="Documents pages" none="No documents" page={page} totalCount={receipt.data?.totalCount ?? 0} pageSize={pageSize} onPage={setPage} />
    </section>
  );
}
