import { useId, useState, type ReactNode } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  heading: { margin: 0 },
  toggle: { justifyContent: 'flex-start', fontWeight: tokens.fontWeightSemibold, paddingLeft: 0 },
});

interface YearSectionProps {
  year: number;
  count: number;
  heading: 'h4' | 'h3';
  /** Whether it starts expanded: see core's `expandedYearOf`. */
  defaultOpen: boolean;
  children: ReactNode;
}

/** A year group, toggled by its heading. */
export function YearSection({ year, count, heading, defaultOpen, children }: YearSectionProps) {
  const styles = useStyles();
  const [open, setOpen] = useState(defaultOpen);
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
