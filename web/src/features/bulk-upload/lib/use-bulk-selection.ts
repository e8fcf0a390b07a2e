import { useMemo, useState } from 'react';
import { splitFolder } from './bulk-batch';
import { chosenFolder, quarterLayout } from './bulk-selection';

/**
 * What the administrator chose in the bulk upload: a manifest and its documents, or a folder
 * (a quarter folder when its paths are in the quarter layout, its period from its name). The
 * two ways of choosing exclude each other: choosing one empties the other's pickers (their
 * `pickerKeys`), so that what the pickers show is what will be read. `onChanged` runs after
 * every choice, to clear what the previous one previewed.
 */
export function useBulkSelection(propertyNames: readonly string[], onChanged: () => void) {
  const [manifest, setManifest] = useState<File | null>(null);
  const [documents, setDocuments] = useState<File[]>([]);
  const [folder, setFolder] = useState<File[] | null>(null);
  const [inputsKey, setInputsKey] = useState(0);
  const [pickerKeys, setPickerKeys] = useState({ files: 0, folder: 0 });

  const quarterFolder = useMemo(() => {
    if (!folder) return null;
    const chosen = chosenFolder(folder);
    const plan = quarterLayout(chosen, propertyNames);
    return plan ? { chosen, plan } : null;
  }, [folder, propertyNames]);
  const folderPeriods = quarterFolder
    ? [...new Set([...quarterFolder.plan.propertyDocuments, ...quarterFolder.plan.manifests].map((p) => `${p.quarter} ${p.year}`))]
    : [];

  const chooseManifest = (file: File | null) => {
    setManifest(file);
    if (folder) setPickerKeys((keys) => ({ ...keys, folder: keys.folder + 1 }));
    setFolder(null);
    onChanged();
  };
  const chooseDocuments = (files: File[]) => {
    setDocuments(files);
    if (folder) setPickerKeys((keys) => ({ ...keys, folder: keys.folder + 1 }));
    setFolder(null);
    onChanged();
  };
  const chooseFolder = (files: File[]) => {
    setFolder(files.length > 0 ? files : null);
    if (manifest || documents.length > 0) setPickerKeys((keys) => ({ ...keys, files: keys.files + 1 }));
    setManifest(null);
    setDocuments([]);
    onChanged();
  };
  /** Empties every picker, after the results are closed. */
  const clear = () => {
    setManifest(null);
    setDocuments([]);
    setFolder(null);
    setInputsKey((k) => k + 1);
  };

  return {
    manifest,
    documents,
    folder,
    quarterFolder,
    folderPeriods,
    /** A folder that is not in the quarter layout: the manifest.csv in it and the other files. */
    chosenManifest: folder && !quarterFolder ? splitFolder(folder) : null,
    inputsKey,
    pickerKeys,
    chooseManifest,
    chooseDocuments,
    chooseFolder,
    clear,
  };
}

export type BulkSelection = ReturnType<typeof useBulkSelection>;
