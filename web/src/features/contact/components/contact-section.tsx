import { Suspense, lazy } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { siteContent } from '@everest/fixtures/content';
import { siteFacts } from '@everest/fixtures/site';
import { SectionHeading } from '../../../components/ui/section-heading';
import { useNearViewport } from '../../../components/ui/use-near-viewport';
import { accentGold, everestBrand } from '../../../lib/theme';

const ContactMap = lazy(() => import('./contact-map'));
const ContactForm = lazy(() => import('./contact-form'));

const { contact } = siteContent;
const { office, departments, firmName } = siteFacts;

// The room the lazy parts take once loaded, so that nothing moves when they arrive.
const mapHeight = '280px';
const formHeight = '620px';

/** 'tel:+16265550100' from '(626) 555-0100' (North American numbers). */
const telHref = (phone: string) => `tel:+1${phone.replace(/\D/g, '')}`;

const useStyles = makeStyles({
  layout: {
    display: 'grid',
    gap: tokens.spacingHorizontalXXL,
    alignItems: 'start',
    '@media (min-width: 960px)': { gridTemplateColumns: '2fr 3fr' },
  },
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXL, minWidth: 0 },
  card: {
    padding: tokens.spacingHorizontalXXL,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  cardHeading: {
    margin: `0 0 ${tokens.spacingVerticalM}`,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  address: { fontStyle: 'normal', lineHeight: tokens.lineHeightBase400 },
  lines: { margin: `${tokens.spacingVerticalM} 0 0`, lineHeight: tokens.lineHeightBase400 },
  term: { fontWeight: tokens.fontWeightSemibold },
  departments: {
    display: 'grid',
    gap: tokens.spacingVerticalM,
    margin: 0,
    '& dd': { margin: 0 },
  },
  link: {
    color: everestBrand[80],
    overflowWrap: 'anywhere',
    ':hover': { color: accentGold.onLight },
    ':focus-visible': { outline: `2px solid ${everestBrand[80]}`, outlineOffset: '2px' },
  },
  map: {
    height: mapHeight,
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow4,
    backgroundColor: tokens.colorNeutralBackground3,
    // Leaflet's panes stack up to z-index 1000; keep them under the sticky navigation bar.
    position: 'relative',
    zIndex: 0,
  },
  formCard: { minHeight: formHeight },
});

/** Contact (anchor contact): the office, the departments, a map and the contact form. */
export default function ContactSection() {
  const styles = useStyles();
  const [mapRef, mapNear] = useNearViewport<HTMLDivElement>();
  const [formRef, formNear] = useNearViewport<HTMLDivElement>();
  return (
    <>
      <SectionHeading id="contact-title" title={contact.heading} subtitle={contact.subtitle} />
      <div className={styles.layout}>
        <div className={styles.column}>
          <div className={styles.card}>
            <h3 className={styles.cardHeading}>{contact.officeHeading}</h3>
            <address className={styles.address}>
              {firmName}
              <br />
              {office.street}
              <br />
              {office.city}, {office.state} {office.zipCode}
            </address>
            <p className={styles.lines}>
              <span className={styles.term}>Phone: </span>
              <a className={styles.link} href={telHref(office.phone)}>
                {office.phone}
              </a>
              <br />
              <span className={styles.term}>Fax: </span>
              {office.fax}
            </p>
          </div>
          <div className={styles.card}>
            <h3 className={styles.cardHeading}>{contact.departmentsHeading}</h3>
            <dl className={styles.departments}>
              {departments.map((department) => (
                <div key={department.key}>
                  <dt className={styles.term}>{department.label}</dt>
                  <dd>
                    <a className={styles.link} href={`mailto:${department.email}`}>
                      {department.email}
                    </a>
                  </dd>
                </div>
              ))}
            </dl>
          </div>
          <div
            ref={mapRef}
            className={styles.map}
            role="region"
            aria-label={`Map: ${firmName} corporate office, ${office.city}`}
          >
            {mapNear && (
              <Suspense fallback={null}>
                <ContactMap />
              </Suspense>
            )}
          </div>
        </div>
        <div ref={formRef} className={mergeClasses(styles.card, styles.formCard)}>
          <h3 className={styles.cardHeading}>{contact.formHeading}</h3>
          {formNear && (
            <Suspense fallback={null}>
              <ContactForm />
            </Suspense>
          )}
        </div>
      </div>
    </>
  );
}
