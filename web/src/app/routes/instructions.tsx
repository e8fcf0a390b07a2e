import { Button, makeStyles, tokens } from '@fluentui/react-components';
import {
  documentCategories,
  documentCategoryLabels,
  k1Category,
  k1Title,
  manifestOptionalColumns,
  manifestRequiredColumns,
  maxDocumentBytes,
  megabyte,
  portalMessages,
  type DocumentCategory,
} from '@everest/core/domain';
import { PageContainer } from '../../components/ui/page-container';
import { bulkUploadTemplateHref, bulkUploadTemplateName } from '../../features/bulk-upload/lib/bulk-upload-template';
import { everestBrand } from '../../lib/theme';

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
  list: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXXL,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    lineHeight: tokens.lineHeightBase400,
  },
  stepTitle: { fontWeight: tokens.fontWeightSemibold },
  tips: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingHorizontalXXL,
    '@media (min-width: 720px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  tipTitle: { margin: `0 0 ${tokens.spacingVerticalS}`, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  code: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    // Short lines, wrapped rather than scrolled on a narrow phone.
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase400,
  },
  inlineCode: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: 'anywhere' },
});

/** The usual categories first (spec: tax, personal and legal); the manifest accepts all five (DECISIONS.md). */
const usualCategories: readonly DocumentCategory[] = ['tax', 'personal', 'legal'];
const otherCategories = documentCategories.filter((c) => !usualCategories.includes(c));

const categoryUse: Record<DocumentCategory, string> = {
  tax: 'Schedule K-1s and other tax forms',
  personal: 'accreditation letters, identity and account papers',
  legal: 'subscription and operating agreements, amendments',
  financial: 'capital account and distribution statements',
  other: 'anything that fits none of the above',
};

const folderLayout = `<year>-Q<n>/
  properties/
    <Property name or General>/
      <file>
  investors/
    manifest.csv
    <the files manifest.csv names>

For example:
2026-Q1/
  properties/
    Sunset Terrace Apartments/
      Q1 2026 Investor Report.pdf
    General/
      Annual Letter 2025.pdf
  investors/
    manifest.csv
    2025-K1-Jane-Investor.pdf
    Acme-Subscription-Agreement.docx`;

const maxMb = maxDocumentBytes / megabyte;

/**
 * Spec, instruction pages: bulk document upload, with overview, 4 steps, categories, tips, folder
 * layout and the template; then Match by content, core's rule (content-matching.ts) in plain words.
 */
export default function InstructionsRoute() {
  const styles = useStyles();
  const code = (text: string) => <code className={styles.inlineCode}>{text}</code>;
  return (
    <PageContainer title="Bulk Document Upload Instructions">
      <div className={styles.page}>
        <section className={styles.section} aria-labelledby="overview">
          <h2 id="overview" className={styles.title}>
            Overview
          </h2>
          <p className={styles.text}>
            The bulk upload publishes personal documents for many investors at once, such as a quarter&apos;s Schedule
            K-1s. A CSV manifest says, one row per document, which investor it is for, which file it is, its category and
            its title. Before anything is sent the panel shows a preview of what each row will do; nothing is published
            until you confirm it. Sending the same batch again publishes nothing twice.
          </p>
          <div>
            <Button as="a" appearance="primary" href={bulkUploadTemplateHref} download={bulkUploadTemplateName}>
              Download Template
            </Button>
          </div>
          <p className={styles.text}>
            {`The template (${bulkUploadTemplateName}) holds the columns and three example rows to replace with your own.`}
          </p>
        </section>

        <section className={styles.section} aria-labelledby="steps">
          <h2 id="steps" className={styles.title}>
            Steps
          </h2>
          <ol className={styles.list}>
            <li>
              <span className={styles.stepTitle}>Prepare the documents. </span>
              One file per document: PDF, DOC, DOCX, XLS or XLSX, at most {maxMb} MB each, each with a file name of its
              own.
            </li>
            <li>
              <span className={styles.stepTitle}>Fill in the manifest. </span>
              One row per document with the columns {code(manifestRequiredColumns.join(', '))} (required) and{' '}
              {code(manifestOptionalColumns.join(', '))} (optional; dates as YYYY-MM-DD, tags separated by commas). The
              e-mail must be an investor&apos;s account; row 1 is the header, so the first document is row 2. Save it as
              CSV.
            </li>
            <li>
              <span className={styles.stepTitle}>Choose and preview. </span>
              In the Admin Panel, open User Documents and, under Bulk Upload User Documents, choose the CSV manifest and
              the documents, or the whole folder holding {code('manifest.csv')} and them. Choose whether each investor
              gets an e-mail, then Preview Upload. The preview lists every row with what will happen to it (published,
              already published, title already used, user not found, missing fields, file missing) and the selected files
              no row names.
            </li>
            <li>
              <span className={styles.stepTitle}>Confirm and read the results. </span>
              Confirm &amp; Upload sends the batch. The results list the documents published, the rows that failed with
              their file and reason, and the files no row named. With notification on, each investor receives one e-mail
              listing all of their new documents.
            </li>
          </ol>
        </section>

        <section className={styles.section} aria-labelledby="categories">
          <h2 id="categories" className={styles.title}>
            Categories
          </h2>
          <p className={styles.text}>
            The {code('document_category')} column takes one of these values (letter case does not matter):
          </p>
          <ul className={styles.list}>
            {[...usualCategories, ...otherCategories].map((category) => (
              <li key={category}>
                {code(category)}
                {` — ${documentCategoryLabels[category]}: ${categoryUse[category]}`}
              </li>
            ))}
          </ul>
        </section>

        <section className={styles.section} aria-labelledby="tips">
          <h2 id="tips" className={styles.title}>
            Tips
          </h2>
          <div className={styles.tips}>
            <div>
              <h3 className={styles.tipTitle}>Do</h3>
              <ul className={styles.list}>
                <li>Start from the template, and keep its header row as it is.</li>
                <li>Write each file name in the manifest exactly as the file is named, extension included.</li>
                <li>Try a small batch of two or three rows first.</li>
                <li>Read the preview before confirming: every row should say &apos;Will be published&apos;.</li>
                <li>Give each document a title the investor will recognise, such as &apos;2025 Schedule K-1&apos;.</li>
                <li>
                  Reuse a title every quarter if you like: a document is the same document only for the same investor (or
                  property), title, category and quarter. A row like that with a changed file publishes its corrected version, and
                  the preview says &apos;corrects …&apos; with the quarter and date it was first published; the same title in
                  another quarter is a new document.
                </li>
              </ul>
            </div>
            <div>
              <h3 className={styles.tipTitle}>Don&apos;t</h3>
              <ul className={styles.list}>
                <li>Don&apos;t leave a required cell empty: the row fails with &apos;{portalMessages.manifestMissingFields}&apos;.</li>
                <li>Don&apos;t use an e-mail that has no account: the row fails with &apos;{portalMessages.userNotFound}&apos;.</li>
                <li>Don&apos;t give one investor two documents of the same title in one quarter: the second row is refused.</li>
                <li>Don&apos;t list a deactivated account: its row is refused, since nobody could read the document.</li>
                <li>Don&apos;t put files larger than {maxMb} MB or of other types in the folder: they are not sent.</li>
                <li>Don&apos;t save an empty manifest: it gives &apos;{portalMessages.noDataInCsv}&apos;.</li>
              </ul>
            </div>
          </div>
        </section>

        <section className={styles.section} aria-labelledby="folder-layout">
          <h2 id="folder-layout" className={styles.title}>
            Folder layout
          </h2>
          <p className={styles.text}>
            Keep each quarter in one folder laid out like this; the desktop app reads the same layout. Property documents
            go under {code('properties/')}, in a folder named exactly as the property (or {code('General')}); the
            investors&apos; personal documents go under {code('investors/')} beside {code('manifest.csv')}. In the browser,
            choose the {code('investors')} folder (or the quarter folder: only the folder holding {code('manifest.csv')} is
            read).
          </p>
          <pre className={styles.code}>
            {folderLayout}
          </pre>
        </section>

        <section className={styles.section} aria-labelledby="match-by-content">
          <h2 id="match-by-content" className={styles.title}>
            Match by content
          </h2>
          <p className={styles.text}>
            For Schedule K-1s there is no manifest to write: Match by content reads the text of each PDF and finds whose
            K-1 it is. Choose the {code('investors/')} folder the preparer sent (one PDF per partner, such as{' '}
            {code('K1_2025_00017.pdf')}) or one combined PDF of every partner&apos;s K-1. Nothing is published until you
            have reviewed every row and confirmed.
          </p>
          <h3 className={styles.tipTitle}>What identifies an investor</h3>
          <ul className={styles.list}>
            <li>Their full name and their entity, as their account has them.</li>
            <li>
              The identifiers an administrator adds on their account, such as {code('Smith Family Trust dtd 3/1/2001')} or
              the last four digits of the partner&apos;s TIN. Two investors who share a full name each need an identifier of
              their own (a trust, an entity, an account name that their K-1 shows) before either can be matched.
            </li>
            <li>
              The last four digits of a TIN count only where the form shows them masked, like {code('XXX-XX-1234')}, and
              only to confirm a name: they never pick an investor on their own.
            </li>
          </ul>
          <h3 className={styles.tipTitle}>The rule</h3>
          <p className={styles.text}>
            A PDF goes to an investor only when one of that investor&apos;s identifiers appears in its text word for word
            (letter case, punctuation and spacing aside) and no other investor&apos;s identifier does. Nothing is matched by
            similarity: a misspelt name, an initial or a nickname is not a match, it is left to you.
          </p>
          <h3 className={styles.tipTitle}>What needs a person</h3>
          <ul className={styles.list}>
            <li>No investor&apos;s name, entity or identifier appears in the PDF.</li>
            <li>Two investors&apos; identifiers appear in it, such as a joint account naming both.</li>
            <li>Only a name that two investors share appears in it.</li>
            <li>The name is one investor&apos;s and the TIN&apos;s last four digits are another&apos;s.</li>
            <li>The PDF is a scan: an image with no text to read.</li>
            <li>
              A name that goes on into a longer one, such as &lsquo;John Smith Jr&rsquo; or &lsquo;Thompson Family Trust II&rsquo;: that may be
              another partner.
            </li>
            <li>In a combined PDF, the pages before the first page that names an investor, such as a cover letter.</li>
          </ul>
          <p className={styles.text}>
            For each of these the review says why and lists the investors whose identifiers it found; name the investor,
            or exclude the row.
          </p>
          <h3 className={styles.tipTitle}>A combined PDF</h3>
          <p className={styles.text}>
            It is cut into sections of consecutive pages. Each page belongs to the investor it names; a page that names
            nobody (continuation pages, statements, a state schedule) follows the page before it. Each section is
            published as a document of its own.
          </p>
          <h3 className={styles.tipTitle}>Title, category and tax year</h3>
          <p className={styles.text}>
            Each K-1 is published in the category {code(k1Category)} with the title {code(k1Title(2025).replace('2025', '<tax year>'))},
            for example &apos;{k1Title(2025)}&apos;. The tax year is read from the form itself (&apos;For calendar year
            2025&apos;, or the year beside &apos;Schedule K-1&apos;), never taken from the batch; when the form states
            none, you give the title before it can be published.
          </p>
        </section>
      </div>
    </PageContainer>
  );
}
