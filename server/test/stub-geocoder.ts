// A stand-in for the geocoder, for end-to-end tests and local runs without the public service:
//   PORT=4399 npx tsx server/test/stub-geocoder.ts
// then start the server with GEOCODER_URL=http://127.0.0.1:4399/search. Any address containing
// "Not Found" finds nothing; any other answers 34.1477849, -118.1445163 (Pasadena), which the
// server rounds to 34.147785, -118.144516.
import { startGeocoderStub } from './geocoder-stub';

const port = Number(process.env.PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT ("${process.env.PORT}") must be a port number.`);
  process.exit(1);
}
const stub = await startGeocoderStub(undefined, port);
console.log(`stub geocoder listening at ${stub.url}`);
const stop = () => void stub.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
