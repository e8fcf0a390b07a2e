import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { Button, Field, SearchBox, Spinner } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import type { ReceiptDocumentSummary } from '@everest/core/contract';
import { fieldMax, formatDateTime, pageSize } from '@everest/core/domain';
import { useReceiptDocuments, type ReceiptDocumentKey } from '../api/read-receipts';
import { getUsers } from '../../../lib/admin/api/users';
import { readReceiptTexts } from '../../../lib/admin/admin-messages';
import { notifyFailure } from '../../../lib/admin/notify';
import { useListPageCount, usePagedListAddress } from '../../../lib/admin/paged-list';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ListPager } from '../../../components/admin/list-pager';
import { NotOpenedFilter } from './receipt-parts';
import { ReceiptDocumentView } from './receipt-document-view';
import { ReceiptInvestorView } from './receipt-investor-view';
import { UserPicker } from '../../../components/admin/user-picker';

/** The address's query keys of the documents list: `?receiptPage=2&receiptSearch=k-1`. */
export const readReceiptsAddressKeys = { page: 'receiptPage', search: 'receiptSearch' } as const;

type View = { kind: 'list' } | ({ kind: 'document' } & ReceiptDocumentKey) | { kind: 'investor'; userId: number };

const ShowDocumentContext = createContext<(document: ReceiptDocumentKey) => void>(() => {});

function DocumentCell({ document }: { document: ReceiptDocumentSummary }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span>{document.title}</span>
      <span className={`${styles.muted} ${styles.breakAnywhere}`}>
        {`${document.documentType === 'personal' ? `Personal · ${document.context}` : document.context} · ${document.quarter} ${document.year}`}
      </span>
    </div>
  );
}

function DocumentActions({ document }: { document: ReceiptDocumentSummary }) {
  const showDocument = useContext(ShowDocumentContext);
  return (
    <Button size="small" aria-label={`Details of ${document.title}`} onClick={() => showDocument(document)}>
      Details
    </Button>
  );
}

const column = createColumnHelper<ReceiptDocumentSummary>();
// 'Opened' comes second, so that a phone shows it beside the title without scrolling sideways.
const columns = [
  column.display({ id: 'document', header: 'Document', cell: ({ row }) => <DocumentCell document={row.original} />, meta: { card: 'title' } }),
  column.display({
    id: 'opened',
    header: 'Opened',
    cell: ({ row }) => `${row.original.openedCount} of ${row.original.entitledCount}`,
  }),
  column.accessor('uploadedAt', { header: 'Published', cell: ({ getValue }) => formatDateTime(getValue()) }),
  column.accessor('lastRemindedAt', { header: 'Last reminder', cell: ({ getValue }) => formatDateTime(getValue(), '—') }),
  column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <DocumentActions document={row.original} />, meta: { card: 'actions' } }),
];

/** Every document with how many of those entitled opened it; searched, filtered, paged by the server. */
function ReceiptDocumentsList({ onShowDocument }: { onShowDocument: (document: ReceiptDocumentKey) => void }) {
  const styles = useAdminStyles();
  const list = usePagedListAddress(readReceiptsAddressKeys);
  const { page, search } = list;
  const [notOpened, setNotOpened] = useState(false);
  const documents = useReceiptDocuments({ page, search, notOpened });
  const totalCount = documents.data?.totalCount ?? 0;
  useListPageCount(list, totalCount, Boolean(documents.data) && !documents.isPlaceholderData);
  const table = useAdminTable({ data: documents.data?.documents, columns, getRowId: (d) => `${d.documentType}-${d.id}` });
  return (
    <section className={styles.section} aria-labelledby="receipt-documents-title">
      <h3 id="receipt-documents-title" tabIndex={-1} className={styles.sectionTitle}>
        {documents.data ? `Documents (${totalCount})` : 'Documents'}
      </h3>
      <div className={styles.toolbar} role="search">
        <Field label="Search documents" className={styles.search}>
          <SearchBox
            value={list.draft}
            maxLength={fieldMax.search}
            placeholder="Title, property, or investor name, entity or e-mail"
            onChange={(_, data) => list.setDraft(data.value)}
          />
        </Field>
        <NotOpenedFilter
          label="Only documents someone has not opened"
          checked={notOpened}
          onChange={(checked) => {
            setNotOpened(checked);
            list.goToPage(1, { push: false });
          }}
        />
        {documents.isFetching && <Spinner size="tiny" label="Loading documents..." />}
      </div>
      {documents.isError && !documents.data ? (
        <div className={styles.buttons} role="alert">
          <span className={styles.alert}>{`${readReceiptTexts.loadFailed}: ${documents.error.message}`}</span>
          <Button onClick={() => void documents.refetch()}>Try again</Button>
        </div>
      ) : (
        <ShowDocumentContext.Provider value={onShowDocument}>
          <AdminTable
            table={table}
            label="Documents"
            empty={documents.isPending ? 'Loading documents...' : search ? `No document matches "${search}".` : 'No documents.'}
          />
        </ShowDocumentContext.Provider>
      )}
      <ListPager label="Documents pages" none="No documents" page={page} totalCount={totalCount} pageSize={pageSize} onPage={(next) => list.goToPage(next)} />
    </section>
  );
}

/** Chooses an investor by search, then shows their documents. */
function InvestorChooser({ onShowInvestor }: { onShowInvestor: (userId: number) => void }) {
  const styles = useAdminStyles();
  const [email, setEmail] = useState('');
  const choose = (chosen: string) => {
    setEmail(chosen);
    if (!chosen) return;
    // The picker answers an e-mail; the investor's view is by id, which its search answers.
    getUsers({ page: 1, search: chosen })
      .then((answer) => {
        const user = answer.users.find((u) => u.email === chosen);
        if (user) onShowInvestor(user.id);
      })
      .catch((error: unknown) => notifyFailure(readReceiptTexts.loadFailed, error));
  };
  return (
    <section className={styles.section} aria-labelledby="receipt-investor-chooser-title">
      <h3 id="receipt-investor-chooser-title" className={styles.sectionTitle}>
        By investor
      </h3>
      <div className={styles.search}>
        <UserPicker value={email} onChange={choose} />
      </div>
    </section>
  );
}

/**
 * Read receipts: every document with how many of those entitled opened it, one
 * document's investors, one investor's documents; reminders to those who have not opened, and
 * CSV exports. A view replaces the lists; 'Back to all documents' returns, and each view's
 * heading takes the focus when it opens.
 */
export function ReadReceiptsTab() {
  const styles = useAdminStyles();
  const [view, setView] = useState<View>({ kind: 'list' });
  const container = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    container.current?.querySelector<HTMLElement>('h3[tabindex="-1"]')?.focus();
  }, [view]);
  const go = (next: View) => {
    moved.current = true;
    setView(next);
  };
  return (
    <div className={styles.tab} ref={container}>
      {view.kind === 'list' ? (
        <>
          <ReceiptDocumentsList onShowDocument={(d) => go({ kind: 'document', documentType: d.documentType, id: d.id })} />
          <InvestorChooser onShowInvestor={(userId) => go({ kind: 'investor', userId })} />
        </>
      ) : (
        <>
          <div>
            <Button onClick={() => go({ kind: 'list' })}>Back to all documents</Button>
          </div>
          {view.kind === 'document' ? (
            <ReceiptDocumentView
              key={`${view.documentType}-${view.id}`}
              document={{ documentType: view.documentType, id: view.id }}
              onShowInvestor={(userId) => go({ kind: 'investor', userId })}
            />
          ) : (
            <ReceiptInvestorView key={view.userId} userId={view.userId} />
          )}
        </>
      )}
    </div>
  );
}
