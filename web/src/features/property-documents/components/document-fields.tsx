import { Field, Select } from '@fluentui/react-components';
import { defaultPropertyGroup, documentYears, quarters, type Quarter } from '@everest/core/domain';
import { useAllProperties } from '../../../lib/admin/api/all-properties';
import { emailingTexts } from '../../../lib/admin/admin-messages';

export interface PropertyChoice {
  name: string;
  /** The name, marked '(not shown to investors)' for a property without investor relations. */
  label: string;
}

/**
 * The property choices of the upload form and the inline editor: 'General' and the live list
 * of properties (the spec's "fixed set of five names" predates the Properties tab).
 * The properties investors are shown come first; the others follow, marked, since a
 * document filed there reaches no investor. A document's current property stays offered even
 * when it is no longer in the list, so that editing its title does not silently move it.
 */
export function usePropertyChoices(current?: string): PropertyChoice[] {
  const properties = useAllProperties();
  return propertyChoices(properties.data?.properties ?? [], current);
}

export function propertyChoices(properties: readonly { name: string; investorRelations: boolean }[], current?: string): PropertyChoice[] {
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  const listed = properties.filter((p) => p.name !== defaultPropertyGroup);
  const choices: PropertyChoice[] = [
    { name: defaultPropertyGroup, label: defaultPropertyGroup },
    ...listed.filter((p) => p.investorRelations).sort(byName).map((p) => ({ name: p.name, label: p.name })),
    ...listed
      .filter((p) => !p.investorRelations)
      .sort(byName)
      .map((p) => ({ name: p.name, label: `${p.name} ${emailingTexts.notShown}` })),
  ];
  if (current && !choices.some((c) => c.name === current)) choices.push({ name: current, label: current });
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
          {choices.map((choice) => (
            <option key={choice.name} value={choice.name}>
              {choice.label}
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
