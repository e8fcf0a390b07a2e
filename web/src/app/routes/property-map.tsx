import { PropertyMapPage } from '../../features/properties/components/property-map-page';
import { QueryProvider } from '../../lib/query-provider';

export default function PropertyMapRoute() {
  return (
    <QueryProvider>
      <PropertyMapPage />
    </QueryProvider>
  );
}
