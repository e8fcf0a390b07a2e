import { Field, Input, Select, Textarea } from '@fluentui/react-components';
import { documentCategories, documentCategoryLabels, fieldMax, type DocumentCategory } from '@everest/core/domain';

/** The describing fields of a personal document, shared by the upload form and the edit modal. */
export interface PersonalDocumentDetails {
  title: string;
  /** '' until chosen. */
  documentCategory: DocumentCategory | '';
  description: string;
  /** 'YYYY-MM-DD' or ''. */
  documentDate: string;
  tags: string;
}

export const emptyDetails: PersonalDocumentDetails = {
  title: '',
  documentCategory: '',
  description: '',
  documentDate: '',
  tags: '',
};

export interface PersonalDocumentFieldsProps {
  details: PersonalDocumentDetails;
  onChange: (patch: Partial<PersonalDocumentDetails>) => void;
  errors?: Partial<Record<'title' | 'documentCategory', string>>;
}

export function PersonalDocumentFields({ details, onChange, errors = {} }: PersonalDocumentFieldsProps) {
  return (
    <>
      <Field label="Document Title" required validationMessage={errors.title}>
        <Input
          name="title"
          autoComplete="off"
          maxLength={fieldMax.title}
          value={details.title}
          onChange={(_, data) => onChange({ title: data.value })}
        />
      </Field>
      <Field label="Document Category" required validationMessage={errors.documentCategory}>
        <Select
          name="documentCategory"
          value={details.documentCategory}
          onChange={(_, data) =>
            onChange({ documentCategory: documentCategories.find((c) => c === data.value) ?? '' })
          }
        >
          <option value="">Choose a category</option>
          {documentCategories.map((c) => (
            <option key={c} value={c}>
              {documentCategoryLabels[c]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Description">
        <Textarea
          name="description"
          maxLength={fieldMax.description}
          value={details.description}
          onChange={(_, data) => onChange({ description: data.value })}
        />
      </Field>
      <Field label="Document Date" hint="Files it under that year and quarter">
        <Input
          name="documentDate"
          type="date"
          value={details.documentDate}
          onChange={(_, data) => onChange({ documentDate: data.value })}
        />
      </Field>
      <Field label="Tags" hint="Separated by commas">
        <Input
          name="tags"
          autoComplete="off"
          maxLength={fieldMax.tags}
          value={details.tags}
          onChange={(_, data) => onChange({ tags: data.value })}
        />
      </Field>
    </>
  );
}
