import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Field, SearchBox, Spinner, useRestoreFocusTarget } from '@fluentui/react-components';
import { getPaginationRowModel, type PaginationState } from '@tanstack/react-table';
import type { PropertyDocument } from '@everest/core/contract';
import { documentAccept, fieldMax, pageSize, portalMessages } from '@everest/core/domain';
import { useDeleteDocument } from '../api/delete-document';
import { useDocuments } from '../../../lib/admin/api/documents';
import { useReplaceDocument } from '../api/replace-document';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { checkDocumentFile, matchesDocument, sortDocuments } from '../../../lib/admin/document-rules';
import { focusOn, pendingFocus, settlePendingFocus, type PendingFocus } from '../../../lib/admin/focus-field';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { tablePagination, useListPageCount, usePagedListAddress } from '../../../lib/admin/paged-list';
import { showToast } from '../../../lib/toast';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { ListPager } from '../../../components/admin/list-pager';
import { useConfirmDelete } from '../../../lib/admin/use-confirm-delete';
import { CorrectDocumentDialog, type CorrectionTarget } from '../../../components/admin/correct-document-dialog';
import { DocumentVersionsDialog, type VersionsTarget } from '../../../components/admin/document-versions-dialog';
import { DocumentRowsContext, documentColumns, type DocumentRowsContextValue } from './document-columns';
import { DocumentEditor } from './document-editor';
import { UploadDocumentForm } from './upload-document-form';

/** The address's query keys of this list: `?documentPage=2&documentSearch=oak`. */
export const documentsAddressKeys = { page: 'documentPage', search: 'documentSearch' } as const;


/**
 * The documents tab (spec: documents): the upload form, and every property document searched
 * and paged by 10 here in the browser (the route answers them all), with inline edit, Replace
 * File for a 'File Missing' document, Correct and Versions for the others, and delete.
 */
export function DocumentsTab() {
  const styles = useAdminStyles();
  const list = usePagedListAddress(documentsAddressKeys);
  const { page, search } = list;
  const documents = useDocuments();
  const remove = useDeleteDocument();
  const replace = useReplaceDocument();
  const restoreFocusTarget = useRestoreFocusTarget();
  const [editingId, setEditingId] = useState<number | null>(null);
  const [correcting, setCorrecting] = useState<CorrectionTarget | null>(null);
  const [showingVersions, setShowingVersions] = useState<VersionsTarget | null>(null);
  const [replacing, setReplacing] = useState<{ id: number; progress: number } | null>(null);
  const replaceTarget = useRef<PropertyDocument | null>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const editButtons = useRef(new Map<number, HTMLElement>());
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Where the focus goes once the element exists (see properties-tab.tsx).
  const focusAfterRender = useRef<PendingFocus | null>(null);
  useEffect(() => {
    if (settlePendingFocus(focusAfterRender.current)) focusAfterRender.current = null;
  });

  const rows = useMemo(
    () => sortDocuments((documents.data?.documents ?? []).filter((d) => matchesDocument(d, search))),
    [documents.data, search],
  );
  const totalCount = rows.length;
  const pageCount = useListPageCount(list, totalCount, Boolean(documents.data));

  const closeEditor = (id: number) => {
    setEditingId(null);
    focusAfterRender.current = pendingFocus(() => focusOn(editButtons.current.get(id)));
  };

  const startReplace = (document: PropertyDocument) => {
    replaceTarget.current = document;
    replaceInput.current?.click();
  };

  const replaceWith = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    const document = replaceTarget.current;
    input.value = '';
    if (!file || !document) return;
    const problem = checkDocumentFile(file);
    if (problem) {
      showToast({ ...problem, variant: 'destructive' });
      return;
    }
    setReplacing({ id: document.id, progress: 0 });
    replace.mutate(
      { documentId: document.id, property: document.property, file, onProgress: (progress) => setReplacing({ id: document.id, progress }) },
      {
        onSuccess: () => {
          notifySuccess(adminSuccess.documentReplaced, `${document.title} has its file again.`);
          focusAfterRender.current = pendingFocus(() => focusOn(editButtons.current.get(document.id)));
        },
        onError: (error) => notifyFailure(portalMessages.documentReplaceFailed, error),
        onSettled: () => setReplacing(null),
      },
    );
  };

  const deletion = useConfirmDelete<PropertyDocument>({
    remove: (document, outcome) => remove.mutate({ documentId: document.id }, outcome),
    pending: remove.isPending,
    deleted: (document) => [adminSuccess.documentDeleted, `${document.title} was deleted.`],
    failure: portalMessages.deletionFailed,
    // The row and its buttons are gone: the list's heading takes the focus.
    onDeleted: () => {
      focusAfterRender.current = pendingFocus(() => focusOn(headingRef.current));
    },
  });
  const { deleting } = deletion;

  const rowsContext: DocumentRowsContextValue = {
    onEdit: (document) => setEditingId(document.id),
    onReplace: startReplace,
    onCorrect: (document) => setCorrecting({ kind: 'property', id: document.id, title: document.title, destination: document.property }),
    onVersions: (document) => setShowingVersions({ documentType: 'property', documentId: document.id, title: document.title }),
    onDelete: deletion.ask,
    replacing,
    editButtonRef: (document) => (element) => {
      if (element) editButtons.current.set(document.id, element);
      else editButtons.current.delete(document.id);
    },
    restoreFocusTarget,
  };

  const pagination: PaginationState = { pageIndex: Math.min(page, pageCount) - 1, pageSize };
  const table = useAdminTable({
    data: rows,
    columns: documentColumns,
    getRowId: (d) => String(d.id),
    getPaginationRowModel: getPaginationRowModel(),
    ...tablePagination(pagination, (nextPage) => {
      setEditingId(null);
      list.goToPage(nextPage);
    }),
  });

  const shownPage = pagination.pageIndex + 1;
  return (
    <div className={styles.tab}>
      <UploadDocumentForm />
      <section className={styles.section} aria-labelledby="documents-list-title">
        <h3 id="documents-list-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
          {documents.data ? `Documents (${documents.data.documents.length})` : 'Documents'}
        </h3>
        <div className={styles.toolbar} role="search">
          <Field label="Search documents" className={styles.search}>
            <SearchBox
              value={list.draft}
              maxLength={fieldMax.search}
              placeholder="Title, property, file, year or quarter"
              onChange={(_, data) => list.setDraft(data.value)}
            />
          </Field>
          {documents.isFetching && <Spinner size="tiny" label="Loading documents..." />}
        </div>
        {documents.isError && !documents.data ? (
          <div className={styles.buttons} role="alert">
            <span className={styles.alert}>{`The documents could not be loaded: ${documents.error.message}`}</span>
            <Button onClick={() => void documents.refetch()}>Try again</Button>
          </div>
        ) : (
          <DocumentRowsContext.Provider value={rowsContext}>
            <AdminTable
              table={table}
              label="Documents"
              editingRowId={editingId === null ? null : String(editingId)}
              renderEditor={(row) => <DocumentEditor document={row.original} onClose={() => closeEditor(row.original.id)} />}
              empty={
                documents.isPending ? 'Loading documents...' : search ? `No document matches "${search}".` : 'No documents yet.'
              }
            />
          </DocumentRowsContext.Provider>
        )}
        <ListPager label="Documents pages" none="No documents" totalCount={totalCount} page={shownPage} onPage={(next) => table.setPageIndex(next - 1)} />
      </section>
      {/* One picker for every row's Replace File: the button opens it for its document. */}
      <input
        ref={replaceInput}
        type="file"
        accept={documentAccept}
        hidden
        aria-label="Replacement file"
        onChange={(event) => replaceWith(event.currentTarget)}
      />
      <CorrectDocumentDialog target={correcting} onClose={() => setCorrecting(null)} />
      <DocumentVersionsDialog target={showingVersions} onClose={() => setShowingVersions(null)} />
      <ConfirmDialog
        title={deleting ? `Delete ${deleting.title}?` : 'Delete document?'}
        confirmLabel="Delete Document"
        pendingLabel="Deleting..."
        {...deletion.dialog}
      >
        {deleting && (
          <p>
            {`${deleting.title} (${deleting.property}, ${deleting.quarter} ${deleting.year}) is removed from the portal for every investor who can see it. This cannot be undone.`}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
