import { crc32 } from 'node:zlib';
import CFB from 'cfb';

// Small but real files of each accepted kind (and look-alikes that are not), built in memory for
// the upload tests: a stored (uncompressed) zip is a valid zip, and an OLE container from `cfb`
// is what Word and Excel 97-2003 write around their streams.

/** A zip of these entries, stored without compression. */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(content, 'utf8');
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const contentTypes = (main: string, part: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="xml" ContentType="application/xml"/><Override PartName="${part}" ContentType="${main}"/></Types>`;

export function sampleDocx(text = 'Quarterly report'): Buffer {
  return zipOf({
    '[Content_Types].xml': contentTypes(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
      '/word/document.xml',
    ),
    'word/document.xml': `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
  });
}

export function sampleXlsx(): Buffer {
  return zipOf({
    '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml', '/xl/workbook.xml'),
    'xl/workbook.xml': '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
  });
}

/** Any zip: a photo archive, say. */
export function plainZip(): Buffer {
  return zipOf({ 'notes.txt': 'not a document', 'photos/readme.txt': 'hello' });
}

function oleWith(stream: string): Buffer {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, `/${stream}`, Buffer.from(`${stream} content `.repeat(200)));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

export const sampleDoc = () => oleWith('WordDocument');
export const sampleXls = () => oleWith('Workbook');
/** An OLE container that is neither (an Outlook message keeps '__properties_version1.0'). */
export const otherOle = () => oleWith('__properties_version1.0');

/** A small valid-looking PDF; `marker` makes its bytes (and so its hash) unique. */
export function samplePdf(marker: string): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${marker}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}
