import { createContext, useContext } from 'react';
import { Badge, Button, type useRestoreFocusTarget } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import type { AdminProperty } from '@everest/core/contract';
import { propertyTypeLabels, type PropertyStatus } from '@everest/core/domain';
import { photoSrcSet } from '../../../lib/property-photo';
import { useAdminStyles } from '../../../components/admin/admin-styles';

export const propertyStatusLabels: Record<PropertyStatus, string> = { active: 'Active', sold: 'Sold', inactive: 'Inactive' };

/** The list's actions, for the rows' cells. */
export interface PropertyRowsContextValue {
  onEdit: (property: AdminProperty) => void;
  onDelete: (property: AdminProperty) => void;
  /** Keeps each row's Edit button, so that the focus can return to it. */
  editButtonRef: (property: AdminProperty) => (element: HTMLElement | null) => void;
  restoreFocusTarget: ReturnType<typeof useRestoreFocusTarget>;
}

export const PropertyRowsContext = createContext<PropertyRowsContextValue | null>(null);

function PhotoCell({ property }: { property: AdminProperty }) {
  const styles = useAdminStyles();
  if (!property.image) return <span className={styles.muted}>None</span>;
  // The smallest web-sized copy that fills 64 px, not the full photo, for a list of dozens.
  return (
    <img
      className={styles.thumbnail}
      src={property.image}
      srcSet={photoSrcSet(property.imageVariants, 'image/webp')}
      sizes="64px"
      alt=""
      loading="lazy"
    />
  );
}

function TypeCell({ property }: { property: AdminProperty }) {
  const styles = useAdminStyles();
  return <span className={styles.nowrap}>{propertyTypeLabels[property.type]}</span>;
}

function LocationCell({ property }: { property: AdminProperty }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span>{property.address || '—'}</span>
      <span className={styles.muted}>{[property.city, property.state].filter(Boolean).join(', ') || '—'}</span>
    </div>
  );
}

function CoordinatesCell({ property }: { property: AdminProperty }) {
  const styles = useAdminStyles();
  if (!property.latitude || !property.longitude) return <span className={styles.muted}>Not set</span>;
  return <span className={styles.nowrap}>{`${property.latitude}, ${property.longitude}`}</span>;
}

function PropertyActionsCell({ property }: { property: AdminProperty }) {
  const styles = useAdminStyles();
  const rows = useContext(PropertyRowsContext);
  if (!rows) throw new Error('The property columns are rendered outside PropertyRowsContext.');
  return (
    <div className={styles.rowActions}>
      <Button size="small" ref={rows.editButtonRef(property)} aria-label={`Edit ${property.name}`} onClick={() => rows.onEdit(property)}>
        Edit
      </Button>
      <Button size="small" aria-label={`Delete ${property.name}`} {...rows.restoreFocusTarget} onClick={() => rows.onDelete(property)}>
        Delete
      </Button>
    </div>
  );
}

const column = createColumnHelper<AdminProperty>();

/** Made once, like the user columns (see user-columns.tsx): a new cell function remounts its cells. */
export const propertyColumns = [
  // On a card the photo is left out: it is decorative here (alt=""), and the editor shows it.
  column.accessor('image', { header: 'Photo', cell: ({ row }) => <PhotoCell property={row.original} />, meta: { card: 'hidden' } }),
  column.accessor('name', { header: 'Name', cell: (info) => info.getValue(), meta: { card: 'title' } }),
  column.accessor('type', { header: 'Type', cell: ({ row }) => <TypeCell property={row.original} /> }),
  column.display({ id: 'location', header: 'Location', cell: ({ row }) => <LocationCell property={row.original} /> }),
  column.accessor('status', {
    header: 'Status',
    cell: (info) => (
      <Badge appearance="tint" color={info.getValue() === 'active' ? 'success' : 'subtle'}>
        {propertyStatusLabels[info.getValue()]}
      </Badge>
    ),
  }),
  column.accessor('investorRelations', { header: 'Investor relations', cell: (info) => (info.getValue() ? 'Yes' : 'No') }),
  column.display({ id: 'coordinates', header: 'Coordinates', cell: ({ row }) => <CoordinatesCell property={row.original} /> }),
  column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <PropertyActionsCell property={row.original} />, meta: { card: 'actions' } }),
];
