import { useEffect, useState } from 'react';
import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import type { FolderDropPlan, FolderUploadStatus } from '../../../../shared/api';
import { errorMessage } from '../../lib/error-message';
import { DropStep } from './drop-step';
import { PlanStep, usePublishing } from './plan-step';
import { UploadStep } from './upload-step';

type Step =
  | { step: 'drop' }
  | { step: 'planning'; folder: string }
  | { step: 'plan'; plan: FolderDropPlan }
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
    return <PlanStep drop={step.plan} publishing={publishing} onCancel={() => setStep({ step: 'drop' })} failureBar={failureBar} />;
  }
  return <UploadStep status={step.status} act={act} onDiscard={discard} failureBar={failureBar} />;
}
