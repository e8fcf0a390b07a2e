import { Badge } from '@fluentui/react-components';
import { formatDate } from '@everest/core/domain';

/**
 * Issue 21: 'Corrected {date} · version n' under a corrected document's title, the date in
 * America/Los_Angeles as the portal shows it; nothing for a document never corrected.
 */
export function CorrectedBadge({ document }: { document: { correctedAt: string | null; version: number } }) {
  if (!document.correctedAt) return null;
  return (
    <span>
      <Badge appearance="tint" color="warning">{`Corrected ${formatDate(document.correctedAt)} · version ${document.version}`}</Badge>
    </span>
  );
}
