/**
 * Width and height as an image's header declares them, read without decoding a pixel. A few
 * hundred bytes can declare a picture that takes gigabytes to decode (a "pixel bomb"), in every
 * browser that shows it; the header is all it takes to refuse one.
 */
export interface Dimensions {
  width: number;
  height: number;
}

function png(bytes: Buffer): Dimensions | null {
  // Signature (8), then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4).
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function gif(bytes: Buffer): Dimensions | null {
  // "GIF89a" then the logical screen: width and height, little-endian 16-bit.
  if (bytes.length < 10) return null;
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

// Start-of-frame markers (SOF0 to SOF15) that carry the frame size; C4, C8 and CC are other segments.
const JPEG_FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(bytes: Buffer): Dimensions | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (JPEG_FRAME.has(marker)) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    // Markers without a length: TEM and RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

function webp(bytes: Buffer): Dimensions | null {
  if (bytes.length < 30) return null;
  switch (bytes.toString('latin1', 12, 16)) {
    case 'VP8 ':
      return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    case 'VP8L': {
      const bits = bytes.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
    default:
      return null;
  }
}

const READERS: Record<string, (bytes: Buffer) => Dimensions | null> = {
  'image/png': png,
  'image/gif': gif,
  'image/jpeg': jpeg,
  'image/webp': webp,
};

/** The declared size of an image of a type file-type recognised, or null when its header is broken. */
export function imageDimensions(mime: string, bytes: Buffer): Dimensions | null {
  const size = READERS[mime]?.(bytes) ?? null;
  return size && size.width > 0 && size.height > 0 ? size : null;
}
