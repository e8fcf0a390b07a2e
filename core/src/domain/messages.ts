// The texts of both specs' error catalogues (section 8) and their success toasts, exactly as
// written there. Texts marked "decided" are ones the spec leaves "not shown".

export interface ToastText {
  title: string;
  description: string;
}

/** Public website (spec/public-site.md, section 8). */
export const publicMessages = {
  contactSuccess: {
    title: 'Success!',
    description: "Your message has been sent. We'll get back to you soon.",
  },
  /** The description is the server's error message when there is one, else `fallback`. */
  contactFailure: { title: 'Error', fallback: 'Failed to send message. Please try again.' },
  requiredFieldsEmpty: 'Please fill in all required fields.',
  captchaNotDone: 'Please complete the reCAPTCHA verification.',
  emptyPropertyList: 'No properties found for the selected filter.',
  transactionImageFailed: (n: number): ToastText => ({
    title: `Transaction ${n}`,
    description: 'Document Unavailable',
  }),
  pageNotFound: 'Page Not Found',
  rootElementNotFound: 'Root element not found',
  loadingProperties: 'Loading properties...',
  loadingPropertyMap: 'Loading property map...',
  loadingCaptcha: 'Loading reCAPTCHA...',
  sending: 'Sending...',
} as const;

/**
 * decided: the sign-in code e-mailed to an account that strangers have guessed at past its hourly
 * ceiling, or whose second step many wrong codes were tried on. The same answer whether or not the
 * password was right, so that guesses past the ceiling teach nothing.
 */
export const signInCodeMessages = {
  needed:
    'Many sign-ins to this account have failed lately. If your password is right, we have e-mailed you a sign-in code: enter it below with your password. A code works once, for 10 minutes.',
  label: 'Sign-in code from your e-mail',
  invalid: 'Please enter the 6-digit code from the e-mail.',
} as const;

/** Investor portal and administration (spec/investor-portal.md, section 8). */
export const portalMessages = {
  loginFailed: 'Login Failed: Invalid email or password. Please try again.',
  userUpdateFailed: 'Error: Failed to update user. Please try again.',
  resetLinkSendFailed: 'Failed to send password reset link.',
  changePasswordFailed: 'Failed to change password. Please check your current password.',
  profileUpdateFailed: 'Failed to update profile.',
  propertyCreateFailed: 'Failed to create property.',
  propertyDeleteFailed: 'Failed to delete property.',
  propertyUpdateFailed: 'Failed to update property.',
  propertyAssignFailed: 'Failed to assign property.',
  documentUploadFailed: 'Upload Failed: Failed to upload document.',
  documentReplaceFailed: 'Replacement Failed',
  userCreateFailed: 'Creation Failed: Failed to create user. Please check if email already exists.',
  assignmentFailed: 'Assignment Failed',
  removalFailed: 'Removal Failed',
  /** Shown with the server's message when there is one. */
  deletionFailed: 'Deletion Failed',
  updateFailed: 'Update Failed',
  // decided: the spec says only "failure toasts (texts not shown)".
  personalDocumentUploadFailed: 'Upload Failed: Failed to upload user document.',
  personalDocumentEditFailed: 'Update Failed: Failed to update user document.',
  personalDocumentDeleteFailed: 'Deletion Failed: Failed to delete user document.',
  /** decided: asking for a document's short-lived address failed; with the server's sentence. */
  documentOpenFailed: 'Download Failed',
  /** Shown with the server's message. */
  bulkUploadFailed: 'Bulk Upload Failed',
  bulkPreviewFailed: 'Preview Failed: Unable to preview upload. Please check your CSV file format.',
  csvPreviewError: 'CSV Preview Error',
  selectCsvFirst: 'Please select a CSV file first',
  importPreviewFailed: 'Failed to preview import',
  importFailed: 'Failed to import users',
  resetTokenValidationFailed: 'Failed to validate reset token',
  invalidResetToken: 'Invalid reset token',
  invalidResetLink: {
    title: 'Invalid or Expired Reset Link',
    description: 'This password reset link is invalid or has expired. Please request a new one.',
  },
  addressNotFound: 'Address Not Found',
  geocodingFailed: 'Geocoding Failed',
  missingAddressInformation: 'Missing Address Information',
  propertyDetailsLoadFailed: 'Failed to load property details',
  refreshFailed: 'Refresh Failed',
  missingFiles: 'Missing Files',
  newPasswordsDoNotMatch: 'New passwords do not match.',
  // decided (DECISIONS.md, 27 November): every role, administrators included, gives its current password.
  enterCurrentPassword: 'Please enter your current password.',
  passwordRequirementsNotMet: 'Password Requirements Not Met',
  noChanges: { title: 'No Changes', description: 'Password unchanged.' },
  passwordsDoNotMatch: 'Passwords do not match',
  fillInAllFields: 'Please fill in all fields',
  enterEmail: 'Please enter your email address',
  manifestMissingFields: 'Missing required fields (email, filename, document_category, title)',
  userNotFound: 'User not found',
  noDataInCsv: 'No data found in CSV',
  missingRequiredFields: 'Missing Required Fields',
  missingCoordinates: 'Missing Coordinates',
  invalidCoordinates: 'Invalid Coordinates',
  invalidFileType: 'Invalid File Type',
  imageTooLarge: 'Image must be less than 10MB',
  fillTitleAndCategory: 'Please fill in both title and category.',
  pageNotFound: 'Page Not Found',
  noPropertyDocuments: 'No property documents available.',
  noPersonalDocuments: 'No personal documents available.',
  roleChanged: (roleLabel: string): string => `Your role has been changed to ${roleLabel}`,
  // decided: the links of an e-mail change (confirm, undo) that cannot be used.
  invalidEmailChangeLink: {
    title: 'Invalid or Expired Link',
    description: 'This link is invalid, has expired or was already used. Nothing was changed.',
  },
  emailChangeFailed: 'Email Not Changed',
} as const;

/** Success toasts. The spec shows only the first two; the others are decided. */
export const portalSuccess = {
  loginSuccessful: 'Login Successful',
  /** Shown with the generated password, for `userCreatedToastMs`. */
  userCreated: 'User Created',
  /** decided; shown for `resetLinkSentToastMs`. Says the same whether or not the account exists. */
  resetLinkSent: {
    title: 'Reset Link Sent',
    description: 'If an account exists for that email address, a password reset link is on its way.',
  },
  passwordChanged: { title: 'Password Changed', description: 'Your password has been updated.' },
  passwordReset: {
    title: 'Password Updated',
    description: 'Your password has been reset. You can now sign in with it.',
  },
  profileUpdated: { title: 'Profile Updated', description: 'Your profile has been saved.' },
  // decided: a new e-mail address takes effect only once its owner opens our link.
  // The same words whether or not another account uses the address, so they reveal nothing.
  emailChangeRequested: (email: string) => ({
    title: 'Confirm Your New Email',
    description: `Your profile has been saved. We sent a link to ${email}: your email address changes once you open it.`,
  }),
  emailChangeConfirmed: (email: string) => ({
    title: 'Email Address Changed',
    description: `Your email address is now ${email}. Use it to sign in from now on.`,
  }),
  emailChangeUndone: (email: string) => ({
    title: 'Email Change Undone',
    description: `Your email address is ${email} again, and every device has been signed out. We have e-mailed you a link to choose a new password: please use it, in case someone else knows your password.`,
  }),
  emailChangeCancelled: { title: 'Email Change Cancelled', description: 'Your email address stays as it is.' },
} as const;

/** A refusal a retry cannot fix: bad input, not allowed, not found, a conflict, too large, wrong type. */
const isRefusal = (status: number | undefined) => status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * The title of a failure toast from a catalogue text. A refusal a retry cannot fix
 * drops the closing 'Please try again.', which sent staff clicking again at a demotion of the
 * built-in administrator; when the server gave its own reason, the title keeps only the
 * catalogue's first sentence, since its advice was a guess at that reason ('Please check if
 * email already exists.' above 'That email address is already used by another account.').
 * Network failures (status 0), 408, 429 and 5xx keep the whole text: there a retry may help.
 */
export function failureTitle(title: string, status: number | undefined, reasonGiven = false): string {
  if (!isRefusal(status)) return title;
  if (reasonGiven) return title.replace(/^(.*?\.)\s.*$/s, '$1');
  return title.replace(/\s*Please try again\.$/, '');
}

/** A sentence shown on its own (a toast's description cut from 'Title: sentence') starts with a capital. */
export function asSentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
