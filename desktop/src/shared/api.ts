import type { SecondStepMethod, User } from '@everest/core/contract';
import type { CsvEncoding, Quarter } from '@everest/core/domain';
import type { Settings } from './settings';

export type { Settings };

/** Who is signed in, as the renderer may know it: never the token, which stays in main. */
export type SessionState =
  | {
      signedIn: false;
      serverUrl: string;
      /**
       * The password was right and the account asks for its second step: the code methods the
       * app can take (a passkey cannot be used here). The sign-in's mfaToken stays in main.
       */
      secondStep?: { methods: SecondStepMethod[] };
    }
  | { signedIn: true; serverUrl: string; user: User; /** Whether the session outlives a restart (a real keyring). */ remembered: boolean };

/** What dropping a folder would publish, worked out before anything is sent. */
export interface FolderDropPlan {
  /** The dropped folder's absolute path. */
  folder: string;
  propertyDocuments: {
    path: string;
    title: string;
    property: string;
    year: number;
    quarter: Quarter;
    size: number;
    /**
     * The same content is already on the portal for this property, under whatever title and
     * quarter: the server answers such an upload alreadyPublished, so it is not sent as new.
     */
    alreadyPublished: boolean;
    /** The panel's warning when no investor could see it (core's noReader sentence), else null. */
    noReader: string | null;
  }[];
  /** The rows of each investors folder's manifest.csv, as core's planBulkManifest sees them. */
  personalDocuments: {
    manifest: string;
    row: number;
    filename: string;
    email: string | null;
    title: string | null;
    outcome: 'publish' | 'already-published' | 'refused';
    reason: string | null;
    /** Where the document is filed: its document_date's quarter, else its quarter folder's. */
    year: number | null;
    quarter: Quarter | null;
  }[];
  /** Each manifest.csv and the encoding it was read in (UTF-8, or Windows-1252 as Excel saves it). */
  manifests: { path: string; encoding: CsvEncoding }[];
  /** Files that will not be sent, each with the sentence saying why. */
  unmatched: { path: string; reason: string }[];
  /** System and editor files left out on purpose. */
  ignored: string[];
  /**
   * Investors folders without a manifest.csv, which Match by content can read: the folder as a
   * manifest's ('2025-Q3/investors', 'investors' in a quarter root, '' for the dropped folder
   * itself), the period its quarter folder gives, and its files' paths below the dropped folder.
   * A single PDF dropped on its own is planned as its folder with that one file to match.
   */
  contentFolders: ContentDropFolder[];
}

export interface ContentDropFolder {
  folder: string;
  /** Null when no quarter folder holds it (a combined PDF dropped on its own): staff choose the quarter. */
  year: number | null;
  quarter: Quarter | null;
  files: string[];
}

/** A file of a dropped folder as Match by content reads it: its path below the folder, and its bytes. */
export interface DroppedFile {
  path: string;
  bytes: Uint8Array;
}

/** What staff confirmed in Match by content's review: a manifest and the documents it names, for one quarter. */
export interface ContentMatchedBatch {
  year: number;
  quarter: Quarter;
  manifest: string;
  documents: { name: string; bytes: Uint8Array }[];
}

/**
 * A file's (or manifest row's) state, as the sync reports it: each ends in one clear state. Final: `published`,
 * `already-published` (the portal had it; nothing new published), `needs-attention`,
 * `still-being-written`, `skipped` (by rule: system files, copies). On the way: `waiting`,
 * `sending`, `failed` (will be tried again).
 */
export type FileProgressState =
  | 'waiting'
  | 'sending'
  | 'published'
  | 'already-published'
  | 'failed'
  | 'needs-attention'
  | 'still-being-written'
  | 'skipped';

/** One file of a folder upload or of the watched folder, as the sync engine last reported it. */
export interface FileProgress {
  path: string;
  /** A manifest's row (its line in the file), when this is one. */
  row?: number;
  state: FileProgressState;
  message: string;
}

export interface FolderUploadStatus {
  folder: string;
  /** 'paused' also after a restart, until the user resumes. */
  state: 'running' | 'paused' | 'done';
  emailNotification: boolean;
  files: FileProgress[];
  /** Files with a final outcome out of all of them. */
  done: number;
  total: number;
  /** How many files and manifest rows are in each state. */
  counts: Record<FileProgressState, number>;
  /** Each final state's count in words: "7 published, 2 already on the portal, 3 need attention, …". */
  summary: string;
  /** Why the portal could not be reached at the last try, or null. */
  unreachable: string | null;
}

export interface SyncStatus {
  folder: string | null;
  running: boolean;
  /** Why the sync could not start or the portal could not be reached, or null. */
  problem: string | null;
  files: FileProgress[];
  /** Files and manifest rows a person must act on, each with its reason. */
  needsAttention: { path: string; row?: number; reason: string }[];
  counts: Record<FileProgressState, number>;
  summary: string;
}

/** The one bridge the preload exposes to the renderer as `window.desktop`. */
export interface DesktopApi {
  getSettings(): Promise<Settings>;
  /** Answers the saved settings; rejects with a sentence when the address is not valid. */
  setServerUrl(url: string): Promise<Settings>;
  /** Answers the chosen folder's absolute path, or null when the dialog was cancelled. */
  chooseFolder(): Promise<string | null>;

  getSession(): Promise<SessionState>;
  /** Signs in to the server of the settings; rejects with the server's sentence. */
  signIn(email: string, password: string): Promise<SessionState>;
  /** The second step of the sign-in under way: a TOTP or backup code; rejects with the server's sentence. */
  verifySecondStep(code: string): Promise<SessionState>;
  /** Ends the session on the server and forgets its token here (or forgets a sign-in waiting for its code). */
  signOut(): Promise<SessionState>;
  /** Told when the session ends or starts in main (a 401 from the server signs out). */
  onSessionChange(listener: (state: SessionState) => void): () => void;

  /** The absolute path of a dropped file or folder (Electron's webUtils, in the preload). */
  getPathForFile(file: File): string;
  planFolderDrop(folder: string): Promise<FolderDropPlan>;
  /** The PDFs of a dropped folder that Match by content reads (`paths` below `folder`). */
  readDroppedPdfs(folder: string, paths: string[]): Promise<DroppedFile[]>;
  /**
   * Writes what staff confirmed as a quarter folder of the app's own (`<year>-<quarter>/investors/`
   * with its manifest.csv and files) and answers its path, which is planned and uploaded as any
   * dropped folder: one publishing path for every manifest.
   */
  stageContentMatch(batch: ContentMatchedBatch): Promise<string>;
  startFolderUpload(folder: string, options: { emailNotification: boolean }): Promise<FolderUploadStatus>;
  pauseFolderUpload(): Promise<FolderUploadStatus | null>;
  /** The current or last folder upload (also one left unfinished before a restart), or null. */
  getFolderUpload(): Promise<FolderUploadStatus | null>;
  /** Forgets a finished or paused upload, so the screen offers a new drop. */
  clearFolderUpload(): Promise<void>;
  onFolderUpload(listener: (status: FolderUploadStatus) => void): () => void;

  /** Chooses the watched folder with the system dialog; answers the settings (unchanged when cancelled). */
  chooseWatchedFolder(): Promise<Settings>;
  startSync(): Promise<SyncStatus>;
  stopSync(): Promise<SyncStatus>;
  getSyncStatus(): Promise<SyncStatus>;
  onSyncStatus(listener: (status: SyncStatus) => void): () => void;

  readonly appVersion: string;
}

/** The bridge methods answering a promise: each is one `ipcRenderer.invoke` channel. */
export type AsyncMethods = {
  [K in keyof DesktopApi as DesktopApi[K] extends (...args: never[]) => Promise<unknown> ? K : never]: DesktopApi[K];
};

/**
 * One channel per asynchronous bridge method. `satisfies` the full record, so a method added to
 * DesktopApi without its channel (or a channel left for a method that is gone) fails typecheck.
 */
export const ipcChannels = {
  getSettings: 'settings:get',
  setServerUrl: 'settings:set-server-url',
  chooseFolder: 'dialog:choose-folder',
  getSession: 'session:get',
  signIn: 'session:sign-in',
  verifySecondStep: 'session:verify-second-step',
  signOut: 'session:sign-out',
  planFolderDrop: 'folder-drop:plan',
  readDroppedPdfs: 'folder-drop:read-pdfs',
  stageContentMatch: 'folder-drop:stage-content-match',
  startFolderUpload: 'folder-upload:start',
  pauseFolderUpload: 'folder-upload:pause',
  getFolderUpload: 'folder-upload:get',
  clearFolderUpload: 'folder-upload:clear',
  chooseWatchedFolder: 'sync:choose-folder',
  startSync: 'sync:start',
  stopSync: 'sync:stop',
  getSyncStatus: 'sync:get',
} as const satisfies Record<keyof AsyncMethods, string>;

export type IpcMethod = keyof typeof ipcChannels;

/** Main → renderer pushes (`webContents.send`), one per `on…` subscription of the bridge. */
export const ipcEvents = {
  session: 'session:changed',
  folderUpload: 'folder-upload:status',
  syncStatus: 'sync:status',
} as const;

/**
 * The main process passes the version to the sandboxed preload as a command-line switch
 * (`webPreferences.additionalArguments`), since the preload cannot reach `app`.
 */
export const appVersionSwitch = '--everest-app-version=';
