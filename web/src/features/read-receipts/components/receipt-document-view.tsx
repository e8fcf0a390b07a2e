import { createContext, useContext, useState } from 'react';
import { Button, Spinner } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReceiptDocumentAnswer } from '@everest/core/contract';
import { formatDateTime, pageSize } from '@everest/core/domain';
import { useReceiptDocument, type ReceiptDocumentKey } from '../api/read-receipts';
import { readReceiptTexts } from '../../../lib/admin/admin-messages';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ListPager } from '../../../components/admin/list-pager';
import { ExportCsvButton, NotOpenedFilter, OpenedCell, RemindButton } from './receipt-parts';

type InvestorRow = ReceiptDocumentAnswer['investors'][number];

const ShowInvestorContext = createContext<(userId: number) => void>(() => {});

function InvestorCell({ investor }: { investor: InvestorRow }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span>{investor.name || investor.email}</span>
      <span className={`${styles.muted} ${styles.breakAnywhere}`}>{investor.email}</span>
    </div>
  );
}

function InvestorActions({ investor }: { investor: InvestorRow }) {
  const showInvestor = useContext(ShowInvestorContext);
  return (
    <Button size="small" aria-label={`Their documents (${investor.name || investor.email})`} onClick={() => showInvestor(investor.userId)}>
      Their documents
    </Button>
  );
}

const column = createColumnHelper<InvestorRow>();
const columns = [
  column.display({ id: 'investor', header: 'Investor', cell: ({ row }) => <InvestorCell investor={row.original} />, meta: { card: 'title' } }),
  column.display({ id: 'opened', header: 'Opened', cell: ({ row }) => <OpenedCell {...row.original} /> }),
  column.accessor('lastRemindedAt', { header: 'Last reminder', cell: ({ getValue }) => formatDateTime(getValue(), '—') }),
  column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <InvestorActions investor={row.original} />, meta: { card: 'actions' } }),
];

export interface ReceiptDocumentViewProps {
  document: ReceiptDocumentKey;
  onShowInvestor: (userId: number) => void;
}

/** One document: who of those entitled opened it and when, who has not, the reminder, the CSV. */
export function ReceiptDocumentView({ document, onShowInvestor }: ReceiptDocumentViewProps) {
  const styles = useAdminStyles();
  const [page, setPage] = useState(1);
  const [notOpened, setNotOpened] = useState(false);
  const receipt = useReceiptDocument(document, page, notOpened);
  const table = useAdminTable({ data: receipt.data?.investors, columns, getRowId: (row) => String(row.userId) });
  const summary = receipt.data?.document;
  return (
    <section className={styles.section} aria-labelledby="receipt-document-title">
      <h3 id="receipt-document-title" tabIndex={-1} className={styles.sectionTitle}>
        {summary ? `Read receipts: ${summary.title}` : 'Read receipts'}
      </h3>
      {summary && (
        <p className={styles.muted} style={{ margin: 0 }}>
          {`${summary.context} · ${summary.quarter} ${summary.year} · opened by ${summary.openedCount} of ${summary.entitledCount}`}
        </p>
      )}
      {summary && (
        <div className={styles.toolbar}>
          <RemindButton
            label="Remind those who have not opened it"
            body={{ documents: [document] }}
            disabled={summary.openedCount >= summary.entitledCount}
            lastRemindedAt={summary.lastRemindedAt}
          />
          <ExportCsvButton source={document} />
        </div>
      )}
      <div className={styles.toolbar}>
        <NotOpenedFilter
          label="Only those who have not opened it"
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
        <ShowInvestorContext.Provider value={onShowInvestor}>
          <AdminTable
            table={table}
            label="Investors"
            empty={receipt.isPending ? 'Loading...' : notOpened ? 'Everyone entitled has opened it.' : 'Nobody may read this document.'}
          />
        </ShowInvestorContext.Provider>
      )}
      <ListPager label="Investors pages" none="No investors" page={page} totalCount={receipt.data?.totalCount ?? 0} pageSize={pageSize} onPage={setPage} />
    </section>
  );
}
