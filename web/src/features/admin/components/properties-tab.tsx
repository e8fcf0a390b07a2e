import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Button, Spinner, useRestoreFocusTarget } from '@fluentui/react-components';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import type { AdminProperty } from '@everest/core/contract';
import { portalMessages, propertyTypeLabels } from '@everest/core/domain';
import { useAllProperties } from '../api/all-properties';
import { useDeleteProperty } from '../api/delete-property';
import { adminSuccess } from '../lib/admin-messages';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { AddPropertyForm } from './add-property-form';
import { AdminTable } from './admin-table';
import { useAdminStyles } from './admin-styles';
import { ConfirmDialog } from './confirm-dialog';
import { PropertyEditor, propertyStatusLabels } from './property-editor';

const column = createColumnHelper<AdminProperty>();

/** The properties tab (spec section 2): add by name, the list with inline edit, delete. */
export function PropertiesTab() {
  const styles = useAdminStyles();
  const properties = useAllProperties();
  const remove = useDeleteProperty();
  const restoreFocusTarget = useRestoreFocusTarget();
  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<AdminProperty | null>(null);
  const editButtons = useRef(new Map<number, HTMLElement>());
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusAfterRender = useRef<(() => void) | null>(null);
  useEffect(() => {
    const focus = focusAfterRender.current;
    focusAfterRender.current = null;
    focus?.();
  });

  const rows = useMemo(
    () => [...(properties.data?.properties ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [properties.data],
  );

  const closeEditor = (id: number) => {
    setEditingId(null);
    focusAfterRender.current = () => editButtons.current.get(id)?.focus();
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const property = deleting;
    remove.mutate(
      { propertyId: property.id },
      {
        onSuccess: () => {
          notifySuccess(adminSuccess.propertyDeleted, `${property.name} was deleted.`);
          setDeleting(null);
          focusAfterRender.current = () => headingRef.current?.focus();
        },
        onError: (error) => {
          setDeleting(null);
          notifyFailure(portalMessages.deletionFailed, error, portalMessages.propertyDeleteFailed);
        },
      },
    );
  };

  const columns = useMemo(
    () => [
      column.accessor('image', {
        header: 'Photo',
        cell: (info) =>
          info.getValue() ? (
            <img className={styles.thumbnail} src={info.getValue() ?? undefined} alt="" loading="lazy" />
          ) : (
            <span className={styles.muted}>None</span>
          ),
      }),
      column.accessor('name', { header: 'Name', cell: (info) => info.getValue() }),
      column.accessor('type', {
        header: 'Type',
        cell: (info) => <span className={styles.nowrap}>{propertyTypeLabels[info.getValue()]}</span>,
      }),
      column.display({
        id: 'location',
        header: 'Location',
        cell: ({ row: { original: p } }) => (
          <div className={styles.cellStack}>
            <span>{p.address || '—'}</span>
            <span className={styles.muted}>{[p.city, p.state].filter(Boolean).join(', ') || '—'}</span>
          </div>
        ),
      }),
      column.accessor('status', {
        header: 'Status',
        cell: (info) => (
          <Badge appearance="tint" color={info.getValue() === 'active' ? 'success' : 'subtle'}>
            {propertyStatusLabels[info.getValue()]}
          </Badge>
        ),
      }),
      column.accessor('investorRelations', {
        header: 'Investor relations',
        cell: (info) => (info.getValue() ? 'Yes' : 'No'),
      }),
      column.display({
        id: 'coordinates',
        header: 'Coordinates',
        cell: ({ row: { original: p } }) =>
          p.latitude && p.longitude ? (
            <span className={styles.nowrap}>{`${p.latitude}, ${p.longitude}`}</span>
          ) : (
            <span className={styles.muted}>Not set</span>
          ),
      }),
      column.display({
        id: 'actions',
        header: 'Actions',
        cell: ({ row: { original: p } }) => (
          <div className={styles.rowActions}>
            <Button
              size="small"
              ref={(element) => {
                if (element) editButtons.current.set(p.id, element);
                else editButtons.current.delete(p.id);
              }}
              aria-label={`Edit ${p.name}`}
              onClick={() => setEditingId(p.id)}
            >
              Edit
            </Button>
            <Button size="small" aria-label={`Delete ${p.name}`} {...restoreFocusTarget} onClick={() => setDeleting(p)}>
              Delete
            </Button>
          </div>
        ),
      }),
    ],
    [styles, restoreFocusTarget],
  );

  const table = useReactTable({ data: rows, columns, getRowId: (p) => String(p.id), getCoreRowModel: getCoreRowModel() });

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
          <AdminTable
            table={table}
            label="Properties"
            editingRowId={editingId === null ? null : String(editingId)}
            renderEditor={(row) => <PropertyEditor property={row.original} onClose={() => closeEditor(row.original.id)} />}
            empty={properties.isPending ? 'Loading properties...' : 'No properties yet.'}
          />
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${deleting.name}?` : 'Delete property?'}
        confirmLabel="Delete Property"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
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
