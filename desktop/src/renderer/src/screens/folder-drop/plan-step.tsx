import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Button,
  Checkbox,
  Field,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  useArrowNavigationGroup,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { csvEncodingLabels } from '@everest/core/domain';
import { BatchEmailSummary, EmailConfirmDialog, emailingTexts, recipientsTitle, type RecipientCount } from '@everest/web/admin';
import type { FolderDropPlan, FolderUploadStatus } from '../../../../shared/api';
import { api } from '../../lib/api';
import { countDropRecipients } from '../../lib/drop-recipients';
import { errorMessage } from '../../lib/error-message';
import { MiddleTruncatedPath } from '../../lib/middle-truncated-path';
import { useScreenStyles } from '../styles';
import { ContentMatchOffer, type ContentToMatch } from './content-match-offer';

/**
 * Publishing a plan: whether investors are e-mailed, and, with e-mail ticked, the count of who
 * is e-mailed, asked for before anything is sent, so that nobody mails a whole quarter's
 * investors by surprise. Held by the Folder Drop flow, so that the choice outlives the plan shown.
 */
export function usePublishing(
  act: (work: () => Promise<FolderUploadStatus | null | void>) => Promise<void>,
  setFailure: (failure: string | null) => void,
) {
  const [notify, setNotify] = useState(false);
  const [counting, setCounting] = useState(false);
  const [confirming, setConfirming] = useState<RecipientCount | null>(null);
  const [starting, setStarting] = useState(false);

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

  return { notify, setNotify, counting, confirming, starting, publish, askToPublish, cancelConfirming: () => setConfirming(null) };
}

export type Publishing = ReturnType<typeof usePublishing>;

/**
 * The plan of a dropped folder, before anything is sent: what will be published, to whom, what
 * is already there, and what is not sent and why; then Publish (or Cancel).
 */
export function PlanStep({
  drop,
  matchedFrom,
  publishing,
  onMatchByContent,
  onCancel,
  failureBar,
}: {
  drop: FolderDropPlan;
  /** The dropped folder whose K-1s were matched by content into this plan (`drop.folder` is the app's copy). */
  matchedFrom?: string | undefined;
  publishing: Publishing;
  /** Staff chose to match an investors folder without manifest.csv by its K-1s' content. */
  onMatchByContent: (content: ContentToMatch) => void;
  onCancel: () => void;
  failureBar: ReactNode;
}) {
  const screen = useScreenStyles();
  const { notify, setNotify, counting, confirming, starting, publish, askToPublish } = publishing;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const publishButtonRef = useRef<HTMLButtonElement>(null);
  const restoreFocusTarget = useRestoreFocusTarget();
  // Each table is one Tab stop; the arrow keys move between its paths (each shows whole on focus).
  const tableNavigation = useArrowNavigationGroup({ axis: 'grid', memorizeCurrent: true });

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  function cancelConfirming() {
    publishing.cancelConfirming();
    // Fluent gives the focus back to the restore target; this covers a re-rendered button.
    requestAnimationFrame(() => publishButtonRef.current?.focus());
  }

  const toPublish =
    drop.propertyDocuments.filter((d) => !d.alreadyPublished).length + drop.personalDocuments.filter((d) => d.outcome === 'publish').length;
  const already =
    drop.propertyDocuments.filter((d) => d.alreadyPublished).length + drop.personalDocuments.filter((d) => d.outcome === 'already-published').length;
  const refused = drop.personalDocuments.filter((d) => d.outcome === 'refused').length + drop.unmatched.length;
  return (
    <section className={screen.screen} aria-labelledby="folder-plan-title">
      <Text as="h2" size={500} weight="semibold" id="folder-plan-title" ref={headingRef} tabIndex={-1}>
        Publishing plan
      </Text>
      <Text className={screen.path}>{matchedFrom ? `${matchedFrom}, matched by content` : drop.folder}</Text>
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
      {drop.contentFolders.map((content) => (
        <ContentMatchOffer key={content.folder} content={content} onMatch={onMatchByContent} />
      ))}
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
        <Button onClick={onCancel}>Cancel</Button>
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
