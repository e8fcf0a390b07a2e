import { PropertiesPage } from '../../features/properties/components/properties-page';
import { QueryProvider } from '../../lib/query-provider';

export default function PropertiesRoute() {
  return (
    <QueryProvider>
      <PropertiesPage />
    </QueryProvider>
  );
}
