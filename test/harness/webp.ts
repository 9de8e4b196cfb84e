/**
 * Reads a WebP file's picture size from its header, so a unit test can check that the committed
 * scene pictures match the width and height the index page gives their <img> (WebP container
 * specification: a RIFF file whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended)).
 */
export function webpSize(file: Uint8Array): { width: number; height: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const fourCC = (at: number): string => String.fromCharCode(...file.subarray(at, at + 4));
  if (file.length < 30 || fourCC(0) !== 'RIFF' || fourCC(8) !== 'WEBP') throw new Error('not a WebP file');
  const chunk = fourCC(12);
  // Chunk data starts at 20. VP8: a 3-byte frame tag and the start code 9d 01 2a, then 14-bit sizes.
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  // VP8L: the signature 0x2f, then width - 1 and height - 1 in 14 bits each.
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  // VP8X: flags and reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
  if (chunk === 'VP8X')
    return { width: (view.getUint32(24, true) & 0xffffff) + 1, height: (view.getUint32(27, true) & 0xffffff) + 1 };
  throw new Error(`unknown WebP chunk "${chunk}"`);
}
