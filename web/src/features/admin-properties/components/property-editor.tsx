import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Button, Checkbox, Field, Input, ProgressBar, Select } from '@fluentui/react-components';
import { ApiError } from '@everest/core/client';
import type { AdminProperty } from '@everest/core/contract';
import {
  fieldMax,
  imageAccept,
  portalMessages,
  propertyStatuses,
  propertyTypeLabels,
  propertyTypes,
  type PropertyType,
} from '@everest/core/domain';
import { useGeocode } from '../api/geocode';
import { useUpdateProperty } from '../api/update-property';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import {
  checkImage,
  checkPropertySave,
  geocodeQueryOf,
  propertyFormOf,
  updateFieldsOf,
  type PropertyForm,
} from '../lib/property-rules';
import { photoSrcSet } from '../../../lib/property-photo';
import { showToast } from '../../../lib/toast';
import { focusField } from '../../../lib/admin/focus-field';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { RowEditor } from '../../../components/admin/row-editor';
import { propertyStatusLabels } from './property-columns';


type TextKey = 'name' | 'address' | 'city' | 'state' | 'zipCode' | 'phone' | 'website' | 'latitude' | 'longitude';
const notAPicture = (name: string) => `${name} is not a picture that can be shown. Choose a JPEG, PNG, WebP or GIF photo.`;

/**
 * Whether the browser can draw the file, as the preview must. Where it cannot tell (no
 * createImageBitmap, as in jsdom) the file passes, and the server still decides at Save.
 */
async function decodesAsImage(file: Blob): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return true;
  try {
    (await createImageBitmap(file)).close();
    return true;
  } catch {
    return false;
  }
}

const textFields: { key: TextKey; label: string; maxLength: number; required?: boolean; inputMode?: 'decimal' | 'tel' | 'url'; wide?: boolean }[] = [
  { key: 'name', label: 'Name', maxLength: fieldMax.propertyName, required: true },
  { key: 'address', label: 'Address', maxLength: fieldMax.streetAddress, required: true },
  { key: 'city', label: 'City', maxLength: fieldMax.city, required: true },
  { key: 'state', label: 'State', maxLength: fieldMax.state, required: true },
  { key: 'zipCode', label: 'ZIP code', maxLength: fieldMax.zipCode },
  { key: 'phone', label: 'Phone', maxLength: fieldMax.phone, inputMode: 'tel' },
  { key: 'website', label: 'Website', maxLength: fieldMax.website, inputMode: 'url' },
];
const coordinateFields: { key: 'latitude' | 'longitude'; label: string }[] = [
  { key: 'latitude', label: 'Latitude' },
  { key: 'longitude', label: 'Longitude' },
];

export interface PropertyEditorProps {
  property: AdminProperty;
  onClose: (saved?: AdminProperty) => void;
}

/**
 * Inline edit of every field of a property (spec: property save), with Get Coordinates and a
 * photo shown before it is sent and its upload's progress while it goes.
 */
export function PropertyEditor({ property, onClose }: PropertyEditorProps) {
  const styles = useAdminStyles();
  const update = useUpdateProperty();
  const geocode = useGeocode();
  const [form, setForm] = useState<PropertyForm>(() => propertyFormOf(property));
  const [photo, setPhoto] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const titleId = `edit-property-${property.id}`;

  useEffect(() => focusField(formRef.current, 'name'), []);

  // The chosen photo is shown before it is sent; its object URL is freed when replaced.
  const photoUrl = useMemo(() => (photo ? URL.createObjectURL(photo) : null), [photo]);
  useEffect(() => () => {
    if (photoUrl) URL.revokeObjectURL(photoUrl);
  }, [photoUrl]);
  const previewUrl = photoUrl ?? (form.image || null);

  const set = <K extends keyof PropertyForm>(key: K, value: PropertyForm[K]) =>
    setForm((previous) => ({ ...previous, [key]: value }));

  const choosing = useRef(0);
  const choosePhoto = async (input: HTMLInputElement) => {
    const file = input.files?.[0] ?? null;
    if (!file) return;
    const mine = ++choosing.current;
    const refuse = (problem: { title: string; description?: string }) => {
      showToast({ ...problem, variant: 'destructive' });
      input.value = '';
    };
    const problem = checkImage(file);
    if (problem) return refuse(problem);
    // A file named and typed as an image may hold anything; one the browser cannot
    // decode showed a broken preview until Save refused it. It is refused at once instead.
    if (!(await decodesAsImage(file))) {
      if (mine === choosing.current) refuse({ title: portalMessages.invalidFileType, description: notAPicture(file.name) });
      return;
    }
    if (mine === choosing.current) setPhoto(file);
  };

  const removePhoto = () => {
    setPhoto(null);
    set('image', '');
    const input = formRef.current?.elements.namedItem('image');
    if (input instanceof HTMLInputElement) input.value = '';
  };

  const getCoordinates = () => {
    const query = geocodeQueryOf(form);
    if (!query) {
      showToast({
        title: portalMessages.missingAddressInformation,
        description: 'Enter the address, city and state first.',
        variant: 'destructive',
      });
      const missing = (['address', 'city', 'state'] as const).find((k) => form[k].trim() === '');
      if (missing) focusField(formRef.current, missing);
      return;
    }
    geocode.mutate(query, {
      onSuccess: ({ latitude, longitude }) => {
        setForm((previous) => ({ ...previous, latitude, longitude }));
        notifySuccess(adminSuccess.coordinatesFound, `${latitude}, ${longitude}`);
      },
      onError: (error) => {
        const notFound = error instanceof ApiError && (error.status === 404 || error.message === portalMessages.addressNotFound);
        if (notFound) notifyFailure(portalMessages.addressNotFound, error, `No place was found for ${query}.`);
        else notifyFailure(portalMessages.geocodingFailed, error);
      },
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const failure = checkPropertySave(form, photo);
    if (failure) {
      showToast({ title: failure.title, description: failure.description, variant: 'destructive' });
      focusField(formRef.current, failure.field);
      return;
    }
    setProgress(photo ? 0 : null);
    update.mutate(
      { fields: updateFieldsOf(property.id, form), image: photo, onProgress: setProgress },
      {
        onSuccess: (answer) => {
          notifySuccess(adminSuccess.propertyUpdated, `${answer.property.name} was saved.`);
          onClose(answer.property);
        },
        onError: (error) => notifyFailure(portalMessages.updateFailed, error, portalMessages.propertyUpdateFailed),
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <RowEditor
      formRef={formRef}
      titleId={titleId}
      title={`Edit ${property.name}`}
      pending={update.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      {textFields.map((f) => (
        <Field key={f.key} label={f.label} required={f.required}>
          <Input
            name={f.key}
            autoComplete="off"
            inputMode={f.inputMode}
            maxLength={f.maxLength}
            value={form[f.key]}
            onChange={(_, data) => set(f.key, data.value)}
          />
        </Field>
      ))}
      <Field label="Type" required>
        <Select
          name="type"
          value={form.type}
          onChange={(_, data) => set('type', propertyTypes.find((t) => t === data.value) ?? form.type)}
        >
          {propertyTypes.map((t: PropertyType) => (
            <option key={t} value={t}>
              {propertyTypeLabels[t]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Status" required>
        <Select
          name="status"
          value={form.status}
          onChange={(_, data) => set('status', propertyStatuses.find((s) => s === data.value) ?? form.status)}
        >
          {propertyStatuses.map((s) => (
            <option key={s} value={s}>
              {propertyStatusLabels[s]}
            </option>
          ))}
        </Select>
      </Field>
      {coordinateFields.map((f) => (
        <Field key={f.key} label={f.label} required>
          <Input
            name={f.key}
            autoComplete="off"
            inputMode="decimal"
            maxLength={24}
            value={form[f.key]}
            onChange={(_, data) => set(f.key, data.value)}
          />
        </Field>
      ))}
      <div className={styles.buttons}>
        <Button onClick={getCoordinates} disabledFocusable={geocode.isPending}>
          {geocode.isPending ? 'Getting Coordinates...' : 'Get Coordinates'}
        </Button>
      </div>
      <Checkbox
        className={styles.wide}
        label="Investor relations (investors can be given access to this property)"
        checked={form.investorRelations}
        onChange={(_, data) => set('investorRelations', data.checked === true)}
      />
      <div className={`${styles.section} ${styles.wide}`}>
        <Field label="Photo" hint="An image under 10 MB">
          {(props) => (
            <input
              {...props}
              name="image"
              type="file"
              accept={imageAccept}
              onChange={(event) => void choosePhoto(event.currentTarget)}
            />
          )}
        </Field>
        {previewUrl ? (
          <img
            className={styles.preview}
            src={previewUrl}
            srcSet={photo || form.image !== property.image ? undefined : photoSrcSet(property.imageVariants, 'image/webp')}
            sizes="320px"
            alt={photo ? `Chosen photo of ${form.name}` : `Current photo of ${form.name}`}
          />
        ) : (
          <span className={styles.muted}>No photo</span>
        )}
        {previewUrl && (
          <div className={styles.buttons}>
            <Button size="small" onClick={removePhoto}>
              Remove Photo
            </Button>
          </div>
        )}
        {progress !== null && (
          <Field label="Uploading photo" validationState="none" hint={`${Math.round(progress * 100)}%`}>
            <ProgressBar value={progress} max={1} />
          </Field>
        )}
      </div>
    </RowEditor>
  );
}
