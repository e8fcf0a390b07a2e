import { Field, ProgressBar } from '@fluentui/react-components';

/** The bulk upload's one bar: over the PDFs read for Match by content, the bytes hashed for the preview, then those sent. */
const stepLabels = { reading: 'Reading PDFs', hashing: 'Checking files', uploading: 'Uploading documents' } as const;

export function BulkProgress({ step, fraction }: { step: keyof typeof stepLabels; fraction: number }) {
  return (
    <Field label={stepLabels[step]} validationState="none" hint={`${Math.round(fraction * 100)}%`}>
      <ProgressBar value={fraction} max={1} />
    </Field>
  );
}
