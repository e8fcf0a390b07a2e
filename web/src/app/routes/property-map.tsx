import { PropertyMapPage } from '../../features/property-map/components/property-map-page';

export default function PropertyMapRoute() {
  return <PropertyMapPage />;
}
