import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { importColumns, importIdentifierSeparator, maxAddedIdentifiers, maxImportCsvBytes, megabyte, roleLabels, roles } from '@everest/core/domain';
import { useInvestorProperties } from '../../../lib/admin/api/investor-properties';

// The CSV help of the Bulk Import tab, also shown on /bulk-user-import-instructions, so that the
// two never describe different files.

/**
 * The example file: a person with a TIN's last four, an entity without personal names, and a row
 * taking the default role with its trust's dated name as an identifier too.
 */
export const importCsvExample = [
  importColumns.join(','),
  'jane.doe@example.com,Jane,Doe,,user,"Aspen Ridge,Lakeside Commons",12 Oak St.,Pasadena,CA,91101,XXX-XX-1234',
  'treasury@harborpoint.example.com,,,Harbor Point Capital LLC,user,Heartland Plaza,"100 Pine St., Suite 1800",San Francisco,CA,94111,',
  'sam.lee@example.com,Sam,Lee,Lee Family Trust,,Mission Oaks,,,,,Lee Family Trust dtd 3/1/2001;XXX-XX-5678',
].join('\n');

const useStyles = makeStyles({
  box: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    minWidth: 0,
  },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
  // The example keeps its lines (a CSV line must not wrap) and scrolls sideways on a phone.
  example: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    overflowX: 'auto',
    maxWidth: '100%',
    boxSizing: 'border-box',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase300,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  names: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalXS,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  name: {
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground1,
    fontSize: tokens.fontSizeBase200,
  },
  cappedNames: {
    maxHeight: '12rem',
    overflowY: 'auto',
    padding: tokens.spacingVerticalXXS,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  title: { margin: 0, fontSize: tokens.fontSizeBase300, fontWeight: tokens.fontWeightSemibold },
  alert: { margin: 0, color: tokens.colorPaletteRedForeground1 },
  text: { margin: 0 },
});

export interface HelpHeadingProps {
  /** The heading level where the help sits: h4 in the admin tab, h2 on the instructions page. */
  level?: 2 | 3 | 4;
}

/** The columns and the rules of the import file (spec: "a CSV format help box"). */
export function ImportCsvFormat({ level = 4 }: HelpHeadingProps) {
  const styles = useStyles();
  const Heading = `h${level}` as const;
  return (
    <section className={styles.box} aria-labelledby="import-csv-format-title">
      <Heading id="import-csv-format-title" className={styles.title}>
        CSV Format
      </Heading>
      <p className={styles.text}>
        The first line names the columns: <code className={styles.code}>{importColumns.join(', ')}</code>. Only{' '}
        <code className={styles.code}>email</code> is always required; column names may be in any case and order.
      </p>
      <ul className={styles.list}>
        <li>A valid email address on every row; an email may appear only once in the file.</li>
        <li>Either firstName and lastName, or entity (or both).</li>
        <li>
          role: one of {roles.map((r) => `${r} (${roleLabels[r]})`).join(', ')}; an empty role takes the default role chosen in
          the form.
        </li>
        <li>
          propertyAccess: property names separated by commas, in quotes when there are several (
          <code className={styles.code}>"Aspen Ridge,Lakeside Commons"</code>); each must match an available property name exactly.
        </li>
        <li>streetAddress, city, state and zipCode are optional; an empty cell leaves an existing user's value as it is.</li>
        <li>
          identifiers (optional): what identifies the investor on a K-1 besides the name and entity, separated by semicolons (
          <code className={styles.code}>Smith Family Trust dtd 3/1/2001{importIdentifierSeparator}XXX-XX-1234</code>): a trust's
          dated name, or the last four digits of the partner's TIN. At most {maxAddedIdentifiers}. For an existing user they
          replace the identifiers added before; an empty cell leaves those as they are. An identifier another account already
          has (as an identifier, a name or an entity) is a row error naming that account, and so is a name or entity that is
          another account's identifier.
        </li>
        <li>
          Saved as CSV (UTF-8, or Excel's "CSV" which is Windows-1252), separated by commas or semicolons; at most{' '}
          {maxImportCsvBytes / megabyte} MB.
        </li>
      </ul>
    </section>
  );
}

/** The example file, as text the administrator can copy. */
export function ImportCsvExample({ level = 4 }: HelpHeadingProps) {
  const styles = useStyles();
  const Heading = `h${level}` as const;
  return (
    <section className={styles.box} aria-labelledby="import-csv-example-title">
      <Heading id="import-csv-example-title" className={styles.title}>
        Example
      </Heading>
      {/* Focusable, so that a keyboard can scroll the long lines sideways. */}
      <pre className={styles.example} tabIndex={0} aria-label="Example CSV file">
        {importCsvExample}
      </pre>
    </section>
  );
}

/** The names propertyAccess may use: the properties flagged for investor relations. */
export function AvailablePropertyNames({ level = 4, capped = false }: HelpHeadingProps & { capped?: boolean }) {
  const styles = useStyles();
  const properties = useInvestorProperties();
  const Heading = `h${level}` as const;
  const names = properties.data?.properties.map((p) => p.name).sort((a, b) => a.localeCompare(b, 'en')) ?? [];
  return (
    <section className={styles.box} aria-labelledby="import-property-names-title">
      <Heading id="import-property-names-title" className={styles.title}>
        Available Property Names
      </Heading>
      {properties.isPending && <Spinner size="tiny" label="Loading properties..." />}
      {properties.isError && <p className={styles.alert}>The property names could not be loaded.</p>}
      {properties.data && names.length === 0 && <p className={styles.text}>No property is flagged for investor relations yet.</p>}
      {names.length > 0 && (
        // Beside the form the list keeps to a few lines and scrolls (focusable, so keys scroll it).
        <div
          className={capped ? styles.cappedNames : undefined}
          {...(capped ? { tabIndex: 0, role: 'region', 'aria-label': 'Property names (scrolls)' } : {})}
        >
          <ul className={styles.names} aria-labelledby="import-property-names-title">
            {names.map((name) => (
              <li key={name} className={styles.name}>
                {name}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
