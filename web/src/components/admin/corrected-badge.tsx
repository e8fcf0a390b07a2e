import { Badge } from '@fluentui/react-components';
import { formatDate } from '@everest/core/domain';
import { useAdminStyles } from './admin-styles';

/**
 * 'Corrected Mar 3, 2026' and 'version n' under a corrected document's title, the date
 * in America/Los_Angeles as the portal shows it; nothing for a document never corrected. The
 * badge holds the date alone: a badge does not wrap, and the lists' title column is narrow.
 */
export function CorrectedBadge({ document }: { document: { correctedAt: string | null; version: number } }) {
  const styles = useAdminStyles();
  if (!document.correctedAt) return null;
  return (
    <span>
      <Badge appearance="tint" color="warning" className={styles.nowrap}>{`Corrected ${formatDate(document.correctedAt)}`}</Badge>
      <span className={styles.muted}>{` version ${document.version}`}</span>
    </span>
  );
}
