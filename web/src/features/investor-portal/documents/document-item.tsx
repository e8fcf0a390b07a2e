import { Badge, Button, makeStyles, tokens, useRestoreFocusTarget } from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import type { InvestorDocument } from '@everest/core/contract';
import { formatCategory, formatDate, formatFileSize } from '@everest/core/domain';
import { markOpened, useOpenDocument } from './documents-query';

const useStyles = makeStyles({
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} 0`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 480px)': { flexDirection: 'column', alignItems: 'stretch' },
  },
  open: {
    flexGrow: 1,
    minWidth: 0,
    justifyContent: 'flex-start',
    textAlign: 'start',
    height: 'auto',
    padding: tokens.spacingVerticalXS,
  },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  title: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  meta: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
  missing: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
});

export interface DocumentItemProps {
  document: InvestorDocument;
  onPreview: (document: InvestorDocument) => void;
  /** The investor whose share this document is read through. */
  onBehalfOf?: number;
}

/**
 * Title, file name and size (and category for personal documents), 'New' until the investor
 * first opens it (again after a correction), and 'Corrected {date}' once a corrected file has
 * replaced the first; opens the preview, or downloads.
 */
export function DocumentItem({ document, onPreview, onBehalfOf }: DocumentItemProps) {
  const styles = useStyles();
  const personal = document.documentType === 'personal';
  // The preview dialog is opened from state, not by a DialogTrigger: this marks the button as
  // where focus goes back to when the dialog closes.
  const restoreFocusTarget = useRestoreFocusTarget();
  const queryClient = useQueryClient();
  const openDocument = useOpenDocument(onBehalfOf);
  const size = personal ? formatFileSize(document.fileSize) : formatFileSize(document.fileSize);
  return (
    <li className={styles.item}>
      <Button {...restoreFocusTarget} appearance="transparent" className={styles.open} onClick={() => {
          markOpened(queryClient, document, onBehalfOf);
          onPreview(document);
        }}
        disabled={!document.fileExists}>
        <span className={styles.text}>
          <span className={styles.heading}>
            <span className={styles.title}>{document.title}</span>
            {!document.opened && (
              <Badge appearance="filled" color="brand" size="small" data-testid="new-badge">
                New
              </Badge>
            )}
            {document.correctedAt && (
              // The file was replaced by a corrected one on this date (Pasadena's calendar).
              <Badge appearance="tint" color="warning" size="small" data-testid="corrected-badge">
                {`Corrected ${formatDate(document.correctedAt)}`}
              </Badge>
            )}
          </span>
          <span className={styles.meta}>
            {document.filename} · {size}
            {personal && ` · ${formatCategory(document.documentCategory)}`}
          </span>
          {!document.fileExists && <span className={styles.missing}>The file is missing; please contact Investor Relations.</span>}
        </span>
      </Button>
      <Button
        disabled={!document.fileExists}
        aria-label={`Download ${document.title}`}
        onClick={() => {
          markOpened(queryClient, document, onBehalfOf);
          openDocument.mutate(document);
        }}
      >
        Download
      </Button>
    </li>
  );
}
