import type { FileProgressState } from '../../../../shared/api';

/** A file's state as the upload and the watched-folder sync show it, in words. */
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

/** The badge colour of each state. */
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
