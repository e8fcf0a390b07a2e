import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Spinner, useRestoreFocusTarget } from '@fluentui/react-components';
import type { AdminProperty } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { useAllProperties } from '../../../lib/admin/api/all-properties';
import { useDeleteProperty } from '../api/delete-property';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { focusOn, pendingFocus, settlePendingFocus, type PendingFocus } from '../../../lib/admin/focus-field';
import { AddPropertyForm } from './add-property-form';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { useConfirmDelete } from '../../../lib/admin/use-confirm-delete';
import { PropertyRowsContext, propertyColumns, type PropertyRowsContextValue } from './property-columns';
import { PropertyEditor } from './property-editor';


/** The properties tab (spec section 2): add by name, the list with inline edit, delete. */
export function PropertiesTab() {
  const styles = useAdminStyles();
  const properties = useAllProperties();
  const remove = useDeleteProperty();
  const restoreFocusTarget = useRestoreFocusTarget();
  const [editingId, setEditingId] = useState<number | null>(null);
  const editButtons = useRef(new Map<number, HTMLElement>());
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Where the focus goes once the element exists (the row's Edit button after its editor
  // closes). Kept until it succeeds: a commit already under way when the editor closed may run
  // its effects before the row is back.
  const focusAfterRender = useRef<PendingFocus | null>(null);
  useEffect(() => {
    if (settlePendingFocus(focusAfterRender.current)) focusAfterRender.current = null;
  });

  const rows = useMemo(
    () => [...(properties.data?.properties ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [properties.data],
  );

  const closeEditor = (id: number) => {
    setEditingId(null);
    focusAfterRender.current = pendingFocus(() => focusOn(editButtons.current.get(id)));
  };

  const deletion = useConfirmDelete<AdminProperty>({
    remove: (property, outcome) => remove.mutate({ propertyId: property.id }, outcome),
    pending: remove.isPending,
    deleted: (property) => [adminSuccess.propertyDeleted, `${property.name} was deleted.`],
    failure: portalMessages.deletionFailed,
    failureFallback: portalMessages.propertyDeleteFailed,
    onDeleted: () => {
      focusAfterRender.current = pendingFocus(() => focusOn(headingRef.current));
    },
  });
  const { deleting } = deletion;

  const rowsContext: PropertyRowsContextValue = {
    onEdit: (property) => setEditingId(property.id),
    onDelete: deletion.ask,
    editButtonRef: (property) => (element) => {
      if (element) editButtons.current.set(property.id, element);
      else editButtons.current.delete(property.id);
    },
    restoreFocusTarget,
  };

  const table = useAdminTable({ data: rows, columns: propertyColumns, getRowId: (p) => String(p.id) });

  return (
    <div className={styles.tab}>
      <AddPropertyForm onCreated={(property) => setEditingId(property.id)} />
      <section className={styles.section} aria-labelledby="properties-list-title">
        <h3 id="properties-list-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
          {properties.data ? `Properties (${rows.length})` : 'Properties'}
        </h3>
        {properties.isFetching && <Spinner size="tiny" label="Loading properties..." />}
        {properties.isError && !properties.data ? (
          <div className={styles.buttons} role="alert">
            <span className={styles.alert}>{`The properties could not be loaded: ${properties.error.message}`}</span>
            <Button onClick={() => void properties.refetch()}>Try again</Button>
          </div>
        ) : (
          <PropertyRowsContext.Provider value={rowsContext}>
            <AdminTable
              table={table}
              label="Properties"
              editingRowId={editingId === null ? null : String(editingId)}
              renderEditor={(row) => <PropertyEditor property={row.original} onClose={() => closeEditor(row.original.id)} />}
              empty={properties.isPending ? 'Loading properties...' : 'No properties yet.'}
            />
          </PropertyRowsContext.Provider>
        )}
      </section>
      <ConfirmDialog
        title={deleting ? `Delete ${deleting.name}?` : 'Delete property?'}
        confirmLabel="Delete Property"
        pendingLabel="Deleting..."
        {...deletion.dialog}
      >
        {deleting && (
          <p>
            {`${deleting.name} is removed from the website, the map and the portal. A property that still has documents or investors with access to it cannot be deleted: move or delete those first. This cannot be undone.`}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
