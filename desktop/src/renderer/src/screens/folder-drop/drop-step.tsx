import { useState, type DragEvent, type ReactNode } from 'react';
import { Button, Spinner, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useScreenStyles } from '../styles';

const useStyles = makeStyles({
  zone: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingVerticalXXXL,
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  dragging: { border: `${tokens.strokeWidthThick} dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
});

/**
 * The first step: a zone to drop a quarterly folder on (or a button to choose one), and, while
 * the dropped folder is read (`planning`), a spinner naming it.
 */
export function DropStep({
  planning,
  onFolder,
  onFailure,
  failureBar,
}: {
  /** The folder being read, or null while waiting for one. */
  planning: string | null;
  onFolder: (folder: string) => void;
  onFailure: (message: string) => void;
  failureBar: ReactNode;
}) {
  const styles = useStyles();
  const screen = useScreenStyles();
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const [first] = event.dataTransfer.files;
    const folder = first ? window.desktop.getPathForFile(first) : '';
    if (!folder) {
      onFailure('Drop a folder from your computer (a quarter folder such as 2025-Q3, or a folder holding several) or a combined PDF of K-1s.');
      return;
    }
    onFolder(folder);
  }

  return (
    <section className={screen.screen} aria-labelledby="folder-drop-title">
      <Text as="h2" size={500} weight="semibold" id="folder-drop-title">
        Folder Drop
      </Text>
      <div
        className={mergeClasses(styles.zone, dragging && styles.dragging)}
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        {planning !== null ? (
          <Spinner label={`Reading ${planning}…`} />
        ) : (
          <>
            <Text size={400}>Drop a quarterly folder here</Text>
            <Text className={screen.muted}>
              2025-Q3/properties/&lt;Property name or General&gt;/&lt;file&gt; and 2025-Q3/investors/manifest.csv with its files; K-1s
              without a manifest, or a combined PDF of them, can be matched by content
            </Text>
            <Button
              onClick={() =>
                void window.desktop.chooseFolder().then((folder) => {
                  if (folder) onFolder(folder);
                })
              }
            >
              Choose a folder…
            </Button>
          </>
        )}
      </div>
      {failureBar}
    </section>
  );
}
