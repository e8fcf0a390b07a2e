import { PropertiesPage } from '../../features/properties/components/properties-page';

export default function PropertiesRoute() {
  return <PropertiesPage />;
}
