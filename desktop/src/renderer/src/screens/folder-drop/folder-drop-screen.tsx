import { useEffect, useRef, useState, type DragEvent } from 'react';
import {
  Badge,
  Button,
  Checkbox,
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
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
  useArrowNavigationGroup,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { csvEncodingLabels } from '@everest/core/domain';
import { BatchEmailSummary, EmailConfirmDialog, emailingTexts, recipientsTitle, type RecipientCount } from '@everest/web/admin';
import type { FileProgressState, FolderDropPlan, FolderUploadStatus } from '../../../../shared/api';
import { api } from '../../lib/api';
import { countDropRecipients } from '../../lib/drop-recipients';
import { errorMessage } from '../../lib/error-message';
import { MiddleTruncatedPath } from '../../lib/middle-truncated-path';
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

export const fileStateLabels: Record<FileProgressState, string> = {
  waiting: 'Waiting',
  sending: 'Sending',
  published: 'Published',
  'already-published': 'Already on the portal',
  failed: 'Failed, will retry',
  'needs-attention': 'Needs attention',
  'still-being-written': 'Still being written',
  skipped: 'Skipped by rule',
};

export const stateColors = {
  waiting: 'informative',
  sending: 'brand',
  published: 'success',
  'already-published': 'subtle',
  failed: 'warning',
  'needs-attention': 'danger',
  'still-being-written': 'informative',
  skipped: 'subtle',
} as const;


type Step =
  | { step: 'drop' }
  | { step: 'planning'; folder: string }
  | { step: 'plan'; plan: FolderDropPlan }
  | { step: 'upload'; status: FolderUploadStatus };

/**
 * Drag a quarterly folder onto the window: its plan (what will be published, to whom, what is
 * already there, what is not sent and why) is shown before anything is sent; the upload then
 * shows each file and the total, can be paused and resumed, and comes back after a restart.
 */
export function FolderDropScreen() {
  const styles = useStyles();
  const screen = useScreenStyles();
  const [step, setStep] = useState<Step>({ step: 'drop' });
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [notify, setNotify] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  // Issue 32 case 7: with e-mail ticked, "Publish" first counts who is e-mailed and asks.
  const [counting, setCounting] = useState(false);
  const [confirming, setConfirming] = useState<RecipientCount | null>(null);
  const [starting, setStarting] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  const publishButtonRef = useRef<HTMLButtonElement>(null);
  const restoreFocusTarget = useRestoreFocusTarget();
  // Each table is one Tab stop; the arrow keys move between its paths (each shows whole on focus).
  const tableNavigation = useArrowNavigationGroup({ axis: 'grid', memorizeCurrent: true });

  useEffect(() => {
    let current = true;
    void window.desktop.getFolderUpload().then((status) => {
      if (current && status) setStep({ step: 'upload', status });
    });
    const unsubscribe = window.desktop.onFolderUpload((status) => setStep({ step: 'upload', status }));
    return () => {
      current = false;
      unsubscribe();
    };
  }, []);

  useEffect(() => {
    if (step.step === 'plan') headingRef.current?.focus();
  }, [step.step]);

  async function plan(folder: string) {
    setFailure(null);
    setStep({ step: 'planning', folder });
    try {
      setStep({ step: 'plan', plan: await window.desktop.planFolderDrop(folder) });
    } catch (error) {
      setFailure(errorMessage(error));
      setStep({ step: 'drop' });
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const [first] = event.dataTransfer.files;
    const folder = first ? window.desktop.getPathForFile(first) : '';
    if (!folder) {
      setFailure('Drop a folder from your computer: a quarter folder (2025-Q3) or a folder holding several.');
      return;
    }
    void plan(folder);
  }

  async function act(work: () => Promise<FolderUploadStatus | null | void>) {
    setFailure(null);
    try {
      const status = await work();
      if (status) setStep({ step: 'upload', status });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  async function publish(drop: FolderDropPlan) {
    setStarting(true);
    try {
      await act(() => window.desktop.startFolderUpload(drop.folder, { emailNotification: notify }));
    } finally {
      setStarting(false);
      setConfirming(null);
    }
  }

  /** Without e-mail, publishes; with it, counts the recipients (fresh) and asks first. */
  async function askToPublish(drop: FolderDropPlan) {
    if (!notify) {
      await publish(drop);
      return;
    }
    setFailure(null);
    setCounting(true);
    try {
      const count = await countDropRecipients(
        drop,
        async (property) => (await api.call('documentRecipients', { query: { property } }, { cache: 'no-store' })).recipients,
      );
      // Nobody to e-mail: nothing to confirm.
      if (count.people === 0) await publish(drop);
      else setConfirming(count);
    } catch (error) {
      setFailure(`${emailingTexts.countFailed}: ${errorMessage(error)}`);
    } finally {
      setCounting(false);
    }
  }

  function cancelConfirming() {
    setConfirming(null);
    // Fluent gives the focus back to the restore target; this covers a re-rendered button.
    requestAnimationFrame(() => publishButtonRef.current?.focus());
  }

  async function discard() {
    setDiscarding(false);
    await act(() => window.desktop.clearFolderUpload());
    setStep({ step: 'drop' });
  }

  const failureBar = failure && (
    <MessageBar intent="error" role="alert">
      <MessageBarBody>{failure}</MessageBarBody>
    </MessageBar>
  );

  if (step.step === 'drop' || step.step === 'planning') {
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
          {step.step === 'planning' ? (
            <Spinner label={`Reading ${step.folder}…`} />
          ) : (
            <>
              <Text size={400}>Drop a quarterly folder here</Text>
              <Text className={screen.muted}>
                2025-Q3/properties/&lt;Property name or General&gt;/&lt;file&gt; and 2025-Q3/investors/manifest.csv with its files
              </Text>
              <Button
                onClick={() =>
                  void window.desktop.chooseFolder().then((folder) => {
                    if (folder) void plan(folder);
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

  if (step.step === 'plan') {
    const { plan: drop } = step;
    const toPublish =
      drop.propertyDocuments.filter((d) => !d.alreadyPublished).length +
      drop.personalDocuments.filter((d) => d.outcome === 'publish').length;
    const already =
      drop.propertyDocuments.filter((d) => d.alreadyPublished).length +
      drop.personalDocuments.filter((d) => d.outcome === 'already-published').length;
    const refused = drop.personalDocuments.filter((d) => d.outcome === 'refused').length + drop.unmatched.length;
    return (
      <section className={screen.screen} aria-labelledby="folder-plan-title">
        <Text as="h2" size={500} weight="semibold" id="folder-plan-title" ref={headingRef} tabIndex={-1}>
          Publishing plan
        </Text>
        <Text className={screen.path}>{drop.folder}</Text>
        <ul className={screen.counts} aria-label="Plan counts">
          <li>Will be published: {toPublish}</li>
          <li>Already published: {already}</li>
          <li>Not sent: {refused}</li>
          <li>Ignored: {drop.ignored.length}</li>
        </ul>

        <Text as="h3" weight="semibold">
          Property documents
        </Text>
        {drop.propertyDocuments.length === 0 ? (
          <Text className={screen.muted}>None.</Text>
        ) : (
          <div className={screen.table}>
            <Table size="small" aria-label="Property documents" {...tableNavigation}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell className={screen.fileColumn}>File</TableHeaderCell>
                  <TableHeaderCell>Title</TableHeaderCell>
                  <TableHeaderCell>Property</TableHeaderCell>
                  <TableHeaderCell className={screen.shortColumn}>Quarter</TableHeaderCell>
                  <TableHeaderCell>Outcome</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {drop.propertyDocuments.map((d) => (
                  <TableRow key={d.path}>
                    <TableCell>
                      <MiddleTruncatedPath path={d.path} />
                    </TableCell>
                    <TableCell>{d.title}</TableCell>
                    <TableCell>{d.property}</TableCell>
                    <TableCell>
                      {d.year} {d.quarter}
                    </TableCell>
                    <TableCell>
                      {d.alreadyPublished ? 'Already published' : 'Will be published'}
                      {d.noReader && (
                        <Text block className={screen.muted} data-testid="no-reader-warning">
                          {d.noReader}
                        </Text>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}

        <Text as="h3" weight="semibold">
          Personal documents
        </Text>
        {drop.manifests.map((m) => (
          <Text key={m.path} className={screen.muted}>
            {m.path} read as {csvEncodingLabels[m.encoding]}
          </Text>
        ))}
        {drop.personalDocuments.length === 0 ? (
          <Text className={screen.muted}>None.</Text>
        ) : (
          <div className={screen.table}>
            <Table size="small" aria-label="Personal documents" {...tableNavigation}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell className={screen.numberColumn}>Row</TableHeaderCell>
                  <TableHeaderCell className={screen.fileNameColumn}>File</TableHeaderCell>
                  <TableHeaderCell>Investor</TableHeaderCell>
                  <TableHeaderCell>Title</TableHeaderCell>
                  <TableHeaderCell className={screen.shortColumn}>Period</TableHeaderCell>
                  <TableHeaderCell>Outcome</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {drop.personalDocuments.map((d) => (
                  <TableRow key={`${d.manifest}:${d.row}`}>
                    <TableCell>{d.row}</TableCell>
                    <TableCell>
                      <MiddleTruncatedPath path={d.filename} />
                    </TableCell>
                    <TableCell>{d.email ?? '—'}</TableCell>
                    <TableCell>{d.title ?? '—'}</TableCell>
                    <TableCell>{d.year !== null && d.quarter !== null ? `${d.year} ${d.quarter}` : '—'}</TableCell>
                    <TableCell>
                      {d.outcome === 'publish' ? 'Will be published' : d.outcome === 'already-published' ? 'Already published' : `Not sent: ${d.reason ?? ''}`}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}

        <Text as="h3" weight="semibold">
          Not sent
        </Text>
        {drop.unmatched.length === 0 ? (
          <Text className={screen.muted}>None.</Text>
        ) : (
          <div className={screen.table}>
            <Table size="small" aria-label="Files not sent" {...tableNavigation}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell className={screen.fileColumn}>File</TableHeaderCell>
                  <TableHeaderCell>Reason</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {drop.unmatched.map((u) => (
                  <TableRow key={u.path}>
                    <TableCell>
                      <MiddleTruncatedPath path={u.path} />
                    </TableCell>
                    <TableCell>{u.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}

        <Field>
          <Checkbox checked={notify} onChange={(_, data) => setNotify(data.checked === true)} label="E-mail the investors about what is published" />
        </Field>
        <div className={screen.row}>
          <Button
            ref={publishButtonRef}
            {...restoreFocusTarget}
            appearance="primary"
            disabled={toPublish === 0}
            disabledFocusable={counting || starting}
            onClick={() => {
              if (!counting && !starting) void askToPublish(drop);
            }}
          >
            {toPublish === 0 ? 'Nothing new to publish' : counting ? emailingTexts.counting : `Publish ${toPublish} document${toPublish === 1 ? '' : 's'}`}
          </Button>
          <Button onClick={() => setStep({ step: 'drop' })}>Cancel</Button>
        </div>
        {failureBar}
        <EmailConfirmDialog
          title={confirming && recipientsTitle(confirming)}
          confirmLabel="Publish and Send E-mails"
          pendingLabel="Starting..."
          pending={starting}
          onConfirm={() => {
            if (!starting) void publish(drop);
          }}
          onCancel={cancelConfirming}
        >
          {confirming && <BatchEmailSummary documents={toPublish} recipients={confirming} />}
        </EmailConfirmDialog>
      </section>
    );
  }

  const { status } = step;
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
        // The final summary names every state's count: "Done" is not "published" (issue 34).
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
