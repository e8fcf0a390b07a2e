import { Field, Select } from '@fluentui/react-components';
import { defaultPropertyGroup, documentYears, quarters, type Quarter } from '@everest/core/domain';
import { useAllProperties } from '../api/all-properties';

/**
 * The property choices of the upload form and the inline editor: 'General' and the live list
 * of properties (issue 16; the spec's "fixed set of five names" predates the Properties tab).
 * A document's current property stays offered even when it is no longer in the list, so that
 * editing its title does not silently move it.
 */
export function usePropertyChoices(current?: string): string[] {
  const properties = useAllProperties();
  const names = (properties.data?.properties ?? []).map((p) => p.name).sort((a, b) => a.localeCompare(b));
  const choices = [defaultPropertyGroup, ...names.filter((n) => n !== defaultPropertyGroup)];
  if (current && !choices.includes(current)) choices.push(current);
  return choices;
}

export interface PlacementFieldsProps {
  property: string;
  year: number;
  quarter: Quarter;
  onChange: (change: { property?: string; year?: number; quarter?: Quarter }) => void;
  errors?: Partial<Record<'property' | 'year' | 'quarter', string>>;
}

/** Property, year and quarter: where a document is filed for the investors. */
export function PlacementFields({ property, year, quarter, onChange, errors = {} }: PlacementFieldsProps) {
  const choices = usePropertyChoices(property);
  const years = documentYears();
  if (!years.includes(year)) years.push(year);
  return (
    <>
      <Field label="Property" required validationMessage={errors.property}>
        <Select name="property" value={property} onChange={(_, data) => onChange({ property: data.value })}>
          {choices.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Year" required validationMessage={errors.year}>
        <Select name="year" value={String(year)} onChange={(_, data) => onChange({ year: Number(data.value) })}>
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Quarter" required validationMessage={errors.quarter}>
        <Select
          name="quarter"
          value={quarter}
          onChange={(_, data) => onChange({ quarter: quarters.find((q) => q === data.value) ?? quarter })}
        >
          {quarters.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </Select>
      </Field>
    </>
  );
}
