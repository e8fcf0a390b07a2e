import { makeStyles, tokens } from '@fluentui/react-components';
import { siteContent } from '@everest/fixtures/content';
import { SectionHeading } from '../../../components/ui/section-heading';
import { AnimatedCounter } from './animated-counter';

const { trackRecord } = siteContent;

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gap: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXL}`,
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    '@media (min-width: 960px)': { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
  },
});

/** Proven Track Record: four counters that count up when they come into view. */
export default function TrackRecordSection() {
  const styles = useStyles();
  return (
    <>
      <SectionHeading id="track-record-title" title={trackRecord.heading} subtitle={trackRecord.subtitle} onDark />
      <ul className={styles.list}>
        {trackRecord.counters.map((counter) => (
          <AnimatedCounter key={counter.label} counter={counter} />
        ))}
      </ul>
    </>
  );
}
