import { useRef, useState, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  useArrowNavigationGroup,
} from '@fluentui/react-components';
import type { FolderUploadStatus } from '../../../../shared/api';
import { MiddleTruncatedPath } from '../../lib/middle-truncated-path';
import { useScreenStyles } from '../styles';
import { fileStateLabels, stateColors } from './file-states';

/**
 * The upload of a dropped folder: each file's state and the total, paused and resumed here, and,
 * once it is not running, closed or discarded (what was published stays on the portal).
 */
export function UploadStep({
  status,
  act,
  onDiscard,
  failureBar,
}: {
  status: FolderUploadStatus;
  act: (work: () => Promise<FolderUploadStatus | null | void>) => Promise<void>;
  /** The person confirmed closing or discarding the upload. */
  onDiscard: () => Promise<void>;
  failureBar: ReactNode;
}) {
  const screen = useScreenStyles();
  const [discarding, setDiscarding] = useState(false);
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  // Each table is one Tab stop; the arrow keys move between its paths (each shows whole on focus).
  const tableNavigation = useArrowNavigationGroup({ axis: 'grid', memorizeCurrent: true });

  async function discard() {
    setDiscarding(false);
    await onDiscard();
  }

  return (
    <section className={screen.screen} aria-labelledby="folder-upload-title">
      <Text as="h2" size={500} weight="semibold" id="folder-upload-title">
        {status.state === 'done' ? 'Upload finished' : status.state === 'paused' ? 'Upload paused' : 'Uploading'}
      </Text>
      <Text className={screen.path}>{status.folder}</Text>
      <Field
        label="Total"
        validationState="none"
        // Paused before the first file was read, the upload knows no file yet.
        // The final summary names every state's count: "Done" is not "published", and a file
        // skipped, already on the portal or needing a person is not one the portal received.
        validationMessage={
          status.total === 0 ? 'No file read yet' : status.state === 'done' ? status.summary : `${status.done} of ${status.total} files done: ${status.summary}`
        }
      >
        <ProgressBar value={status.total === 0 ? 0 : status.done / status.total} aria-label="Total progress" />
      </Field>
      {status.unreachable && (
        <MessageBar intent="warning">
          <MessageBarBody>The portal could not be reached: {status.unreachable}</MessageBarBody>
        </MessageBar>
      )}
      <div className={screen.row}>
        {status.state === 'running' && <Button onClick={() => void act(() => window.desktop.pauseFolderUpload())}>Pause</Button>}
        {status.state === 'paused' && (
          <Button
            appearance="primary"
            onClick={() => void act(() => window.desktop.startFolderUpload(status.folder, { emailNotification: status.emailNotification }))}
          >
            Resume
          </Button>
        )}
        {status.state !== 'running' && (
          <Button ref={closeButtonRef} onClick={() => setDiscarding(true)}>{status.state === 'done' ? 'Drop another folder' : 'Discard'}</Button>
        )}
      </div>
      <div className={screen.table}>
        <Table size="small" aria-label="Files" {...tableNavigation}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell className={screen.fileColumn}>File</TableHeaderCell>
              <TableHeaderCell className={screen.stateColumn}>State</TableHeaderCell>
              <TableHeaderCell>Details</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {status.files.map((file) => (
              <TableRow key={`${file.path}#${file.row ?? ''}`}>
                <TableCell>
                  <MiddleTruncatedPath path={file.path} />
                </TableCell>
                <TableCell>
                  <Badge appearance="tint" color={stateColors[file.state]}>
                    {fileStateLabels[file.state]}
                  </Badge>
                </TableCell>
                <TableCell>{file.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {failureBar}
      <Dialog
        open={discarding}
        onOpenChange={(_, data) => {
          setDiscarding(data.open);
          // Escape or Keep it: the focus goes back to the button that opened the dialog.
          if (!data.open) requestAnimationFrame(() => closeButtonRef.current?.focus());
        }}
      >
        <DialogSurface aria-describedby="discard-upload-text">
          <DialogBody>
            <DialogTitle>{status.state === 'done' ? 'Close this upload?' : 'Discard this upload?'}</DialogTitle>
            <DialogContent id="discard-upload-text">
              What was published stays on the portal. Dropping the same folder again later sends only what is not there yet.
            </DialogContent>
            <DialogActions>
              <Button
                onClick={() => {
                  setDiscarding(false);
                  requestAnimationFrame(() => closeButtonRef.current?.focus());
                }}
              >
                Keep it
              </Button>
              <Button appearance="primary" onClick={() => void discard()}>
                {status.state === 'done' ? 'Close' : 'Discard'}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </section>
  );
}
