import { PropertyMapPage } from '../../features/property-map/components/property-map-page';
import { QueryProvider } from '../../lib/query-provider';

export default function PropertyMapRoute() {
  return (
    <QueryProvider>
      <PropertyMapPage />
    </QueryProvider>
  );
}
