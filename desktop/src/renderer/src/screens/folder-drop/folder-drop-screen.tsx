import { lazy, Suspense, useEffect, useState } from 'react';
import { MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components';
import type { FolderDropPlan, FolderUploadStatus } from '../../../../shared/api';
import { errorMessage } from '../../lib/error-message';
import type { ContentToMatch } from './content-match-offer';
import { DropStep } from './drop-step';
import { PlanStep, usePublishing } from './plan-step';
import { UploadStep } from './upload-step';

// PDF.js and the review load only when staff match by content.
const ContentMatchStep = lazy(() => import('./content-match-step'));

type Step =
  | { step: 'drop' }
  | { step: 'planning'; folder: string }
  /** `matchedFrom`: the dropped folder whose K-1s staff matched by content into this plan's folder. */
  | { step: 'plan'; plan: FolderDropPlan; matchedFrom?: string }
  | { step: 'match'; plan: FolderDropPlan; content: ContentToMatch }
  | { step: 'upload'; status: FolderUploadStatus };

/**
 * Drag a quarterly folder onto the window: its plan (what will be published, to whom, what is
 * already there, what is not sent and why) is shown before anything is sent; the upload then
 * shows each file and the total, can be paused and resumed, and comes back after a restart.
 * One component per step (drop-step, plan-step, upload-step); this one moves between them.
 */
export function FolderDropScreen() {
  const [step, setStep] = useState<Step>({ step: 'drop' });
  const [failure, setFailure] = useState<string | null>(null);

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

  async function plan(folder: string, matchedFrom?: string) {
    setFailure(null);
    setStep({ step: 'planning', folder: matchedFrom ?? folder });
    try {
      setStep({ step: 'plan', plan: await window.desktop.planFolderDrop(folder), ...(matchedFrom ? { matchedFrom } : {}) });
    } catch (error) {
      setFailure(errorMessage(error));
      setStep({ step: 'drop' });
    }
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

  // With e-mail ticked, "Publish" first counts who is e-mailed and asks: a folder published to
  // the wrong people cannot be un-sent.
  const publishing = usePublishing(act, setFailure);

  async function discard() {
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
      <DropStep planning={step.step === 'planning' ? step.folder : null} onFolder={(folder) => void plan(folder)} onFailure={setFailure} failureBar={failureBar} />
    );
  }
  if (step.step === 'plan') {
    const { plan: drop } = step;
    return (
      <PlanStep
        drop={drop}
        matchedFrom={step.matchedFrom}
        publishing={publishing}
        onMatchByContent={(content) => setStep({ step: 'match', plan: drop, content })}
        onCancel={() => setStep({ step: 'drop' })}
        failureBar={failureBar}
      />
    );
  }
  if (step.step === 'match') {
    const { plan: drop } = step;
    // What staff confirm is its own quarter folder, planned and published as any drop.
    return (
      <Suspense fallback={<Spinner label="Loading Match by content…" />}>
        <ContentMatchStep
          folder={drop.folder}
          content={step.content}
          onStaged={(staged) => void plan(staged, drop.folder)}
          onCancel={() => setStep({ step: 'plan', plan: drop })}
          onFailure={setFailure}
          failureBar={failureBar}
        />
      </Suspense>
    );
  }
  return <UploadStep status={step.status} act={act} onDiscard={discard} failureBar={failureBar} />;
}
