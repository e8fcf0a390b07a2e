import { useSyncExternalStore } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import {
  duplicateHandlings,
  firstTestImportBatch,
  maxImportCsvBytes,
  maxImportRows,
  megabyte,
  recommendedImportBatch,
  welcomeEmailWarningThreshold,
} from '@everest/core/domain';
import { PageContainer } from '../../components/ui/page-container';
import { bulkImportTemplateUrl } from '../../features/bulk-import/api/bulk-import-template';
import {
  AvailablePropertyNames,
  ImportCsvExample,
  ImportCsvFormat,
} from '../../features/bulk-import/components/bulk-import-csv-help';
import { duplicateHandlingLabels } from '../../features/bulk-import/components/bulk-import-form';
import { everestBrand } from '../../lib/theme';
import { QueryProvider } from '../../lib/query-provider';
import { getStoredUser } from '../../lib/session-storage';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXL, maxWidth: '900px' },
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, minWidth: 0 },
  title: {
    margin: 0,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  text: { margin: 0, lineHeight: tokens.lineHeightBase400 },
  steps: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    lineHeight: tokens.lineHeightBase400,
  },
  stepTitle: { fontWeight: tokens.fontWeightSemibold },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXXL, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, lineHeight: tokens.lineHeightBase400 },
});

// The stored session is read after hydration (the server snapshot has none), so that the page's
// first render is the same with or without one.
const subscribe = (onChange: () => void) => {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
};
const isAdministrator = () => getStoredUser()?.role === 'administrator';

/** Spec, instruction pages: overview, 4 steps, CSV example, available properties, best practices and limits. */
export default function BulkUserImportInstructionsRoute() {
  const styles = useStyles();
  const administrator = useSyncExternalStore(subscribe, isAdministrator, () => false);

  return (
    <PageContainer title="Bulk User Import Instructions">
      <div className={styles.page}>
        <section className={styles.section} aria-labelledby="overview-title">
          <h2 id="overview-title" className={styles.title}>
            Overview
          </h2>
          <p className={styles.text}>
            The Bulk Import tab of the Administration Panel creates many investor accounts at once from one CSV file, and
            can update the accounts that already exist. You always see a preview first: new users, existing users with
            their changes, and rows with errors (with their line in the file). Nothing changes until you confirm.
          </p>
          <p className={styles.text}>
            Imported users get no password. The welcome email carries a link, valid for 7 days, with which they set
            their own; without welcome emails, send them reset links later from the Users tab.
          </p>
        </section>

        <section className={styles.section} aria-labelledby="steps-title">
          <h2 id="steps-title" className={styles.title}>
            Four Steps
          </h2>
          <ol className={styles.steps}>
            <li>
              <span className={styles.stepTitle}>Download the template.</span> It has the columns in order; keep the
              first line as it is.{' '}
              <Button as="a" href={bulkImportTemplateUrl} download size="small">
                Download Template
              </Button>
            </li>
            <li>
              <span className={styles.stepTitle}>Fill in one row per investor.</span> An email on every row, and either
              first and last name or an entity. Give property access with the exact property names listed below,
              separated by commas, and any identifiers the investor's K-1 shows (a trust's dated name, the last four
              digits of the TIN), separated by semicolons. Save as CSV.
            </li>
            <li>
              <span className={styles.stepTitle}>Preview the import.</span> In the Bulk Import tab choose the file, the
              default role (for rows without one), how to handle emails that already have an account, and whether to
              send welcome and update emails. Press Preview Import and read the three counts: New Users, Existing
              Users and Errors.
            </li>
            <li>
              <span className={styles.stepTitle}>Confirm and import.</span> Fix errors in the file and preview again,
              or go ahead: rows with errors are skipped. Press Confirm &amp; Import Users and read the results:
              imported, updated, skipped, failed and the emails sent.
            </li>
          </ol>
        </section>

        <section className={styles.section} aria-labelledby="csv-title">
          <h2 id="csv-title" className={styles.title}>
            CSV Example
          </h2>
          <ImportCsvFormat level={3} />
          <ImportCsvExample level={3} />
        </section>

        <section className={styles.section} aria-labelledby="properties-title">
          <h2 id="properties-title" className={styles.title}>
            Available Properties
          </h2>
          {administrator ? (
            <QueryProvider>
              <AvailablePropertyNames level={3} />
            </QueryProvider>
          ) : (
            <p className={styles.text}>
              Property access may name only properties open to investor relations. Sign in as an administrator in the
              Investor Portal to see their names here; the Bulk Import tab lists them too.
            </p>
          )}
        </section>

        <section className={styles.section} aria-labelledby="practices-title">
          <h2 id="practices-title" className={styles.title}>
            Best Practices and Limits
          </h2>
          <ul className={styles.list}>
            <li>
              Test first with {firstTestImportBatch.min} to {firstTestImportBatch.max} users, then import in batches of{' '}
              {recommendedImportBatch.min} to {recommendedImportBatch.max}.
            </li>
            <li>
              Consider turning welcome emails off above {welcomeEmailWarningThreshold} users, and send reset links in
              smaller groups.
            </li>
            <li>
              Duplicate handling:{' '}
              {duplicateHandlings.map((d) => duplicateHandlingLabels[d]).join('; ')}. Skip is the safe default; Stop
              imports nothing at all when any email already has an account.
            </li>
            <li>Importing the same file twice is safe: the second run creates nobody and sends no email.</li>
            <li>
              Two investors who share a full name each need an identifier of their own before K-1s can be matched to them
              by content. An identifier is compared without case, spaces or punctuation, and "XXX-XX-1234" is the same as
              "1234"; one that two accounts would share is refused on its row.
            </li>
            <li>
              A file may be at most {maxImportCsvBytes / megabyte} MB and {maxImportRows.toLocaleString('en-US')} rows;
              split larger lists.
            </li>
            <li>Save from Excel as "CSV UTF-8" when names have accents; plain "CSV" works too.</li>
          </ul>
        </section>
      </div>
    </PageContainer>
  );
}
