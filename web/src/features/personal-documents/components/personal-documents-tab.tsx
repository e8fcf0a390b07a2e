import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Field, SearchBox, Spinner, useRestoreFocusTarget } from '@fluentui/react-components';
import type { PaginationState } from '@tanstack/react-table';
import type { PersonalDocument } from '@everest/core/contract';
import { documentCategoryLabels, fieldMax, pageSize, portalMessages } from '@everest/core/domain';
import { useDeletePersonalDocument } from '../api/delete-personal-document';
import { usePersonalDocuments } from '../api/personal-documents';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { focusOn, pendingFocus, settlePendingFocus, type PendingFocus } from '../../../lib/admin/focus-field';
import { tablePagination, useListPageCount, usePagedListAddress } from '../../../lib/admin/paged-list';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { ListPager } from '../../../components/admin/list-pager';
import { useConfirmDelete } from '../../../lib/admin/use-confirm-delete';
import { CorrectDocumentDialog, type CorrectionTarget } from '../../../components/admin/correct-document-dialog';
import { DocumentVersionsDialog, type VersionsTarget } from '../../../components/admin/document-versions-dialog';
import { EditPersonalDocumentDialog } from './edit-personal-document-dialog';
import { UploadPersonalDocumentForm } from './upload-personal-document-form';
import { PersonalDocumentRowsContext, personalDocumentColumns, type PersonalDocumentRowsContextValue } from './personal-document-columns';

/**
 * The address's query keys of this list: `?userDocumentPage=2&userDocumentSearch=tax`. They keep
 * the list's first name (the spec's "User Documents" tab), as staff have bookmarked them.
 */
export const personalDocumentsAddressKeys = { page: 'userDocumentPage', search: 'userDocumentSearch' } as const;

/**
 * The personal documents tab (the spec's 'User Documents'): the bulk upload with its preview
 * (`bulkUpload`, drawn by the panel, which composes the features), the individual upload, and the
 * personal documents paged by 10 on the server with the search in the address, with download,
 * the Edit User Document modal and delete.
 */
export function PersonalDocumentsTab({ bulkUpload }: { bulkUpload?: ReactNode }) {
  const styles = useAdminStyles();
  const list = usePagedListAddress(personalDocumentsAddressKeys);
  const { page, search } = list;
  const documents = usePersonalDocuments({ page, search });
  const remove = useDeletePersonalDocument();
  const restoreFocusTarget = useRestoreFocusTarget();
  const [editing, setEditing] = useState<PersonalDocument | null>(null);
  const [correcting, setCorrecting] = useState<CorrectionTarget | null>(null);
  const [showingVersions, setShowingVersions] = useState<VersionsTarget | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusAfterRender = useRef<PendingFocus | null>(null);
  useEffect(() => {
    if (settlePendingFocus(focusAfterRender.current)) focusAfterRender.current = null;
  });

  const totalCount = documents.data?.totalCount ?? 0;
  const pageCount = useListPageCount(list, totalCount, Boolean(documents.data) && !documents.isPlaceholderData);

  const deletion = useConfirmDelete<PersonalDocument>({
    remove: (document, outcome) => remove.mutate({ documentId: document.id }, outcome),
    pending: remove.isPending,
    deleted: (document) => [adminSuccess.personalDocumentDeleted, `${document.title} was deleted.`],
    failure: portalMessages.personalDocumentDeleteFailed,
    onDeleted: () => {
      focusAfterRender.current = pendingFocus(() => focusOn(headingRef.current));
    },
  });
  const { deleting } = deletion;

  const rowsContext: PersonalDocumentRowsContextValue = {
    onEdit: setEditing,
    onDelete: deletion.ask,
    onCorrect: (document) => setCorrecting({ kind: 'personal', id: document.id, title: document.title, destination: document.userEmail }),
    onVersions: (document) => setShowingVersions({ documentType: 'personal', documentId: document.id, title: document.title }),
    restoreFocusTarget,
  };

  const pagination: PaginationState = { pageIndex: page - 1, pageSize };
  const table = useAdminTable({
    data: documents.data?.documents,
    columns: personalDocumentColumns,
    getRowId: (d) => String(d.id),
    manualPagination: true,
    pageCount,
    ...tablePagination(pagination, (nextPage) => list.goToPage(nextPage)),
  });


  return (
    <div className={styles.tab}>
      {bulkUpload}
      <UploadPersonalDocumentForm />
      <section className={styles.section} aria-labelledby="user-documents-list-title">
        <h3 id="user-documents-list-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
          {documents.data ? `User Documents (${totalCount})` : 'User Documents'}
        </h3>
        <div className={styles.toolbar} role="search">
          <Field label="Search user documents" className={styles.search}>
            <SearchBox
              value={list.draft}
              maxLength={fieldMax.search}
              placeholder="Title, tag, investor name or e-mail"
              onChange={(_, data) => list.setDraft(data.value)}
            />
          </Field>
          {documents.isFetching && <Spinner size="tiny" label="Loading user documents..." />}
        </div>
        {documents.isError && !documents.data ? (
          <div className={styles.buttons} role="alert">
            <span className={styles.alert}>{`The user documents could not be loaded: ${documents.error.message}`}</span>
            <Button onClick={() => void documents.refetch()}>Try again</Button>
          </div>
        ) : (
          <PersonalDocumentRowsContext.Provider value={rowsContext}>
            <AdminTable
              table={table}
              label="User Documents"
              empty={
                documents.isPending
                  ? 'Loading user documents...'
                  : search
                    ? `No user document matches "${search}".`
                    : 'No user documents yet.'
              }
            />
          </PersonalDocumentRowsContext.Provider>
        )}
        <ListPager label="User documents pages" none="No user documents" totalCount={totalCount} page={page} onPage={(next) => table.setPageIndex(next - 1)} />
      </section>
      <EditPersonalDocumentDialog document={editing} onClose={() => setEditing(null)} />
      <CorrectDocumentDialog target={correcting} onClose={() => setCorrecting(null)} />
      <DocumentVersionsDialog target={showingVersions} onClose={() => setShowingVersions(null)} />
      <ConfirmDialog
        title={deleting ? `Delete ${deleting.title}?` : 'Delete user document?'}
        confirmLabel="Delete Document"
        pendingLabel="Deleting..."
        {...deletion.dialog}
      >
        {deleting && (
          <p>
            {`${deleting.title} (${documentCategoryLabels[deleting.documentCategory]}) is removed from ${deleting.userEmail}'s documents. This cannot be undone.`}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
