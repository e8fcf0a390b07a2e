import 'leaflet/dist/leaflet.css';
import { icon } from 'leaflet';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { MapContainer, Marker, Popup, TileLayer } from 'react-leaflet';
import { makeStyles, tokens } from '@fluentui/react-components';
import { contactMap } from '@everest/core/domain';
import { siteFacts } from '@everest/fixtures/site';
import { TILE_ATTRIBUTION, tileUrl } from '../../../components/map/tile-layer';

// Leaflet finds its default marker images through a CSS probe that bundling breaks; the files
// are named here instead, so that Vite fingerprints and serves them.
const markerIcon = icon({
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
});

const useStyles = makeStyles({
  map: { height: '100%', width: '100%' },
  popup: { margin: 0, lineHeight: tokens.lineHeightBase300 },
});

const { office } = siteFacts;

/**
 * The small map of the contact section: one marker on the corporate office, with its address in
 * a popup. A chunk of its own, loaded as the section nears the screen. Without tiles (offline,
 * blocked) the marker and its popup still work on the empty map.
 */
export default function ContactMap() {
  const styles = useStyles();
  return (
    <MapContainer
      center={[contactMap.center[0], contactMap.center[1]]}
      zoom={contactMap.zoom}
      scrollWheelZoom={false}
      className={styles.map}
    >
      <TileLayer url={tileUrl()} attribution={TILE_ATTRIBUTION} />
      <Marker
        position={[office.latitude, office.longitude]}
        icon={markerIcon}
        alt={`${siteFacts.firmName} corporate office`}
        title={`${siteFacts.firmName} corporate office`}
      >
        <Popup>
          <p className={styles.popup}>
            <strong>{siteFacts.firmName}</strong>
            <br />
            {office.street}
            <br />
            {office.city}, {office.state} {office.zipCode}
          </p>
        </Popup>
      </Marker>
    </MapContainer>
  );
}
