import { useAdminStyles } from '../../../components/admin/admin-styles';
import type { BulkSelection } from '../lib/use-bulk-selection';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What the bulk upload will read, said as it is chosen: a quarter folder with its property files
 * and manifests, a folder with its manifest (or without one), or a manifest and documents.
 */
export function BulkSelectionSummary({ selection }: { selection: BulkSelection }) {
  const styles = useAdminStyles();
  const { quarterFolder, folder, chosenManifest, manifest, documents } = selection;
  const propertyFiles = quarterFolder ? quarterFolder.plan.propertyDocuments.length + quarterFolder.plan.duplicates.length : 0;
  return (
    <p className={styles.muted} aria-live="polite">
      {quarterFolder
        ? `Quarter folder ${quarterFolder.chosen.rootName}: ${propertyFiles} property ${propertyFiles === 1 ? 'file' : 'files'}, ${count(quarterFolder.plan.manifests.length, 'manifest', 'manifests')}`
        : folder
          ? chosenManifest?.manifest
            ? `Folder: ${chosenManifest.manifest.webkitRelativePath || chosenManifest.manifest.name} and ${count(chosenManifest.files.length, 'file', 'files')}`
            : `Folder: ${count(folder.length, 'file', 'files')}, no manifest.csv`
          : `${manifest ? manifest.name : 'No manifest'} · ${count(documents.length, 'document', 'documents')} selected`}
    </p>
  );
}
