import { useId, useState, type ReactNode } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { isYearExpandedByDefault } from '@everest/core/domain';

const useStyles = makeStyles({
  heading: { margin: 0 },
  toggle: { justifyContent: 'flex-start', fontWeight: tokens.fontWeightSemibold, paddingLeft: 0 },
});

/** A year group: collapsed unless it is the current year (spec), toggled by its heading. */
export function YearSection({ year, count, heading, children }: { year: number; count: number; heading: 'h4' | 'h3'; children: ReactNode }) {
  const styles = useStyles();
  const [open, setOpen] = useState(() => isYearExpandedByDefault(year));
  const panelId = useId();
  const Heading = heading;
  return (
    <section>
      <Heading className={styles.heading}>
        <Button
          appearance="transparent"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          icon={<span aria-hidden="true">{open ? '▾' : '▸'}</span>}
        >
          {year} ({count})
        </Button>
      </Heading>
      <div id={panelId} hidden={!open}>
        {children}
      </div>
    </section>
  );
}
