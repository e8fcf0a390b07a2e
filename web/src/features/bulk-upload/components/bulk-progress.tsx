import { Field, ProgressBar } from '@fluentui/react-components';

/** The bulk upload's one bar: over the bytes read and hashed for the preview, then over those sent. */
export function BulkProgress({ step, fraction }: { step: 'hashing' | 'uploading'; fraction: number }) {
  return (
    <Field label={step === 'hashing' ? 'Checking files' : 'Uploading documents'} validationState="none" hint={`${Math.round(fraction * 100)}%`}>
      <ProgressBar value={fraction} max={1} />
    </Field>
  );
}
