import { Checkbox, Field, Select } from '@fluentui/react-components';
import { documentAccept, documentYears, quarters, type Quarter } from '@everest/core/domain';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { useBulkStyles } from './bulk-styles';

// The folder picker's attribute is not in React's types; Chromium, Firefox and Safari all read it.
const folderPicker = { webkitdirectory: '', directory: '' } as Record<string, string>;

export interface BulkUploadPickerProps {
  /** A new key empties every picker (after the results are closed). */
  inputsKey: number;
  /** Choosing one way empties the other's pickers, through their keys. */
  pickerKeys: { files: number; folder: number };
  disabled: boolean;
  onManifest: (file: File | null) => void;
  onDocuments: (files: File[]) => void;
  onFolder: (files: File[]) => void;
  /** A quarter folder's periods, from its name; null for any other choice. */
  folderPeriods: string[] | null;
  periodYear: number | null;
  periodQuarter: Quarter | null;
  onPeriodYear: (year: number | null) => void;
  onPeriodQuarter: (quarter: Quarter | null) => void;
  emailNotification: boolean;
  onEmailNotification: (checked: boolean) => void;
  /** Match by content: K-1 PDFs without a manifest, each given to the investor it names. */
  matchContent: boolean;
  onMatchContent: (checked: boolean) => void;
}

/**
 * The bulk upload's choice: a CSV manifest and the documents it names, or a whole folder; the
 * batch's period when the folder does not give it; and the notification.
 */
export function BulkUploadPicker(props: BulkUploadPickerProps) {
  const { inputsKey, pickerKeys, disabled, onManifest, onDocuments, onFolder, folderPeriods, periodYear, periodQuarter } = props;
  const { onPeriodYear, onPeriodQuarter, emailNotification, onEmailNotification, matchContent, onMatchContent } = props;
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const years = documentYears();
  return (
    <div className={bulk.inputs} key={inputsKey}>
      <div className={styles.wide}>
        <Checkbox
          name="matchContent"
          label="Match by content: K-1 PDFs without a manifest"
          checked={matchContent}
          disabled={disabled}
          onChange={(_, data) => onMatchContent(data.checked === true)}
        />
        <p className={bulk.or}>
          Each PDF goes to the one investor whose name, entity or identifier it carries, and a combined PDF is cut into one PDF per
          investor. You review every row before the preview.
        </p>
      </div>
      {!matchContent && (
      <Field label="CSV manifest" hint="Columns: email, filename, document_category, title">
        {(props) => (
          <input
            {...props}
            key={`manifest-${pickerKeys.files}`}
            className={bulk.fileInput}
            name="csvManifest"
            type="file"
            accept=".csv,text/csv"
            disabled={disabled}
            onChange={(event) => onManifest(event.currentTarget.files?.[0] ?? null)}
          />
        )}
      </Field>
      )}
      <Field label="Documents" hint={matchContent ? 'K-1 PDFs: one per partner, or one combined PDF of every partner' : 'PDF, DOC, DOCX, XLS or XLSX, up to 10 MB each'}>
        {(props) => (
          <input
            {...props}
            key={`documents-${pickerKeys.files}`}
            className={bulk.fileInput}
            name="documents"
            type="file"
            multiple
            accept={matchContent ? '.pdf,application/pdf' : documentAccept}
            disabled={disabled}
            onChange={(event) => onDocuments(Array.from(event.currentTarget.files ?? []))}
          />
        )}
      </Field>
      <Field
        label="Or a whole folder"
        hint={
          matchContent
            ? 'A folder of K-1 PDFs without manifest.csv (an investors/ folder, or a quarter folder holding one): only its PDFs are read'
            : 'A quarter folder (2026-Q3 with properties/<Property name>/ and investors/manifest.csv), or a folder holding manifest.csv and the documents it names'
        }
        className={styles.wide}
      >
        {(props) => (
          <input
            {...props}
            {...folderPicker}
            key={`folder-${pickerKeys.folder}`}
            className={bulk.fileInput}
            name="folder"
            type="file"
            disabled={disabled}
            onChange={(event) => onFolder(Array.from(event.currentTarget.files ?? []))}
          />
        )}
      </Field>
      {folderPeriods && !matchContent ? (
        // Nothing to file (an investors folder without its manifest): the preview says why, no period.
        folderPeriods.length > 0 && (
          <p className={`${styles.wide} ${bulk.or}`} data-testid="bulk-period">
            {`Period: from the folder (${folderPeriods.join(', ')}). A row's own document_date still wins.`}
          </p>
        )
      ) : (
        <fieldset className={`${styles.wide} ${bulk.period}`}>
          <legend className={bulk.legend}>Period of the batch (optional)</legend>
          <p className={bulk.or}>
            Rows without a document_date are filed under this quarter; with none chosen, under the quarter of the upload date.
          </p>
          <div className={bulk.periodFields}>
            <Field label="Year">
              <Select
                name="batchYear"
                value={periodYear === null ? '' : String(periodYear)}
                onChange={(_, data) => onPeriodYear(data.value ? Number(data.value) : null)}
              >
                <option value="">None</option>
                {years.map((y) => (
                  <option key={y} value={y}>
                    {y}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Quarter">
              <Select
                name="batchQuarter"
                value={periodQuarter ?? ''}
                onChange={(_, data) => onPeriodQuarter(quarters.find((q) => q === data.value) ?? null)}
              >
                <option value="">None</option>
                {quarters.map((q) => (
                  <option key={q} value={q}>
                    {q}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
        </fieldset>
      )}
      <Checkbox
        className={styles.wide}
        label="Send an email notification to each reader (one e-mail listing all of their new documents)"
        checked={emailNotification}
        onChange={(_, data) => onEmailNotification(data.checked === true)}
      />
    </div>
  );
}
