import { makeStyles, tokens } from '@fluentui/react-components';
import dividerUrl from '@everest/fixtures/files/site/divider.svg';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    justifyContent: 'center',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  image: { display: 'block', width: '100%', maxWidth: '600px', height: 'auto' },
});

/** The ornament between two sections: decorative, so it is hidden from assistive technology. */
export function SectionDivider() {
  const styles = useStyles();
  return (
    <div className={styles.root} aria-hidden>
      <img src={dividerUrl} alt="" width={1200} height={48} loading="lazy" decoding="async" className={styles.image} />
    </div>
  );
}
