import { useEffect, useState } from 'react';
import {
  Badge,
  Button,
  MessageBar,
  MessageBarBody,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  useArrowNavigationGroup,
} from '@fluentui/react-components';
import type { SyncStatus } from '../../../shared/api';
import { errorMessage } from '../lib/error-message';
import { MiddleTruncatedPath } from '../lib/middle-truncated-path';
import { fileStateLabels, stateColors } from './folder-drop/file-states';
import { useScreenStyles } from './styles';

const useStyles = makeStyles({
  // A state is read at a glance: one line, never broken inside its badge on a narrow window.
  badge: { whiteSpace: 'nowrap' },
});

/** The watched-folder sync, run by the main process: its folder, start and stop, every file's state, and what needs a person. */
export function SyncStatusScreen() {
  const screen = useScreenStyles();
  const styles = useStyles();
  const [status, setStatus] = useState<SyncStatus | null>(null);
  const [folder, setFolder] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const tableNavigation = useArrowNavigationGroup({ axis: 'grid', memorizeCurrent: true });

  useEffect(() => {
    let current = true;
    void Promise.all([window.desktop.getSyncStatus(), window.desktop.getSettings()]).then(([sync, settings]) => {
      if (!current) return;
      setStatus(sync);
      setFolder(settings.watchedFolder);
    });
    const unsubscribe = window.desktop.onSyncStatus(setStatus);
    return () => {
      current = false;
      unsubscribe();
    };
  }, []);

  async function act(work: () => Promise<void>) {
    setFailure(null);
    try {
      await work();
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  const running = status?.running ?? false;
  return (
    <section className={screen.screen} aria-labelledby="sync-title">
      <Text as="h2" size={500} weight="semibold" id="sync-title">
        Watched Folder
      </Text>
      <Text className={screen.muted}>
        Files copied into this folder in the quarter layout are published once they have stopped changing. Nothing in the folder is
        changed, and nothing is removed from the portal when a file is deleted here.
      </Text>
      <div className={screen.row}>
        <Text>
          Folder: <span className={screen.path}>{folder ?? 'none chosen'}</span>
        </Text>
        <Button
          disabled={running}
          onClick={() => void act(async () => setFolder((await window.desktop.chooseWatchedFolder()).watchedFolder))}
        >
          Choose a folder…
        </Button>
        {running ? (
          <Button onClick={() => void act(async () => setStatus(await window.desktop.stopSync()))}>Stop</Button>
        ) : (
          <Button appearance="primary" disabled={!folder} onClick={() => void act(async () => setStatus(await window.desktop.startSync()))}>
            Start
          </Button>
        )}
        <Badge appearance="outline" color={running ? 'success' : 'informative'} role="status">
          {running ? 'Watching' : 'Stopped'}
        </Badge>
      </div>
      {(failure ?? status?.problem) && (
        <MessageBar intent="warning" role="alert">
          <MessageBarBody>{failure ?? status?.problem}</MessageBarBody>
        </MessageBar>
      )}

      <Text as="h3" weight="semibold" id="needs-attention-title">
        Needs attention ({status?.needsAttention.length ?? 0})
      </Text>
      {status && status.needsAttention.length > 0 ? (
        <ul className={screen.list} aria-labelledby="needs-attention-title" tabIndex={0}>
          {status.needsAttention.map((item) => (
            <li key={`${item.path}#${item.row ?? ''}`}>
              <span className={screen.path}>{item.row === undefined ? item.path : `${item.path}, row ${item.row}`}</span>: {item.reason}
            </li>
          ))}
        </ul>
      ) : (
        <Text className={screen.muted}>Nothing.</Text>
      )}

      <Text as="h3" weight="semibold">
        Files ({status?.files.length ?? 0})
      </Text>
      {status && status.files.length > 0 && <Text role="status">{status.summary}</Text>}
      <div className={screen.table}>
        <Table size="small" aria-label="Watched files" {...tableNavigation}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell className={screen.fileColumn}>File</TableHeaderCell>
              <TableHeaderCell className={screen.stateColumn}>State</TableHeaderCell>
              <TableHeaderCell>Details</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(status?.files ?? []).map((file) => (
              <TableRow key={`${file.path}#${file.row ?? ''}`}>
                <TableCell>
                  <MiddleTruncatedPath path={file.row === undefined ? file.path : `${file.path}, row ${file.row}`} />
                </TableCell>
                <TableCell>
                  <Badge appearance="tint" color={stateColors[file.state]} className={styles.badge}>
                    {fileStateLabels[file.state]}
                  </Badge>
                </TableCell>
                <TableCell>{file.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}
