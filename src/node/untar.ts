/**
 * A minimal reader for the ustar archives that ship inside `@sparticuz/chromium` (SwiftShader, fonts,
 * libraries).
 *
 * Invariants: every header's checksum and size are verified, so a corrupt archive is an error, never
 * a silently short file; only regular files and directories are written; every entry path stays
 * inside the destination (absolute paths and `..` segments are rejected, so an archive cannot write
 * elsewhere); pax (`x`) and GNU long-name (`L`) headers are honoured for long paths; other entry types
 * (links, devices) are skipped, since the archives this reads contain none.
 *
 * Hand-written, not tar-fs (which @sparticuz/chromium depends on): d3d12-webgpu/node then needs no
 * dependency of its own, and the bench and validate bundles that inline it carry no stream stack.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

/** ustar's block size: every header and every file body is padded to it. */
const BLOCK = 512;
/** The checksum field: summed as if it held spaces. */
const CHECKSUM_OFFSET = 148;
const CHECKSUM_LENGTH = 8;

/** A file or folder read from an archive, before it is written. */
export interface TarEntry {
  path: string;
  type: 'file' | 'directory' | 'other';
  mode: number;
  data: Uint8Array;
}

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/** An octal number field; NaN when it holds anything but octal digits. */
function octal(header: Uint8Array, offset: number, length: number): number {
  const text = field(header, offset, length).trim();
  if (text === '') return 0;
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : NaN;
}

function checksumOf(header: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) {
    const inField = i >= CHECKSUM_OFFSET && i < CHECKSUM_OFFSET + CHECKSUM_LENGTH;
    sum += inField ? 0x20 : (header[i] ?? 0);
  }
  return sum;
}

/** Reads the `path` record of a pax extended header ("<len> path=<value>\n" records). */
function paxPath(data: Uint8Array): string | undefined {
  const text = new TextDecoder().decode(data);
  for (const record of text.split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match) return match[1];
  }
  return undefined;
}

/** Parses an uncompressed tar archive into its entries. Throws on a corrupt or truncated archive. */
export function readTar(archive: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break; // two zero blocks end the archive
    const recorded = octal(header, CHECKSUM_OFFSET, CHECKSUM_LENGTH);
    if (recorded !== checksumOf(header)) {
      throw new Error(`tar header at byte ${offset} is corrupt: checksum ${recorded}, computed ${checksumOf(header)}`);
    }
    const size = octal(header, 124, 12);
    if (!Number.isSafeInteger(size)) throw new Error(`tar header at byte ${offset} has an unreadable size`);
    const typeFlag = String.fromCharCode(header[156] ?? 0);
    const bodyStart = offset + BLOCK;
    if (bodyStart + size > archive.length) {
      throw new Error(`tar archive is truncated: entry at byte ${offset} needs ${size} bytes`);
    }
    const data = archive.subarray(bodyStart, bodyStart + size);
    offset = bodyStart + Math.ceil(size / BLOCK) * BLOCK;

    if (typeFlag === 'x' || typeFlag === 'L') {
      longName = typeFlag === 'x' ? paxPath(data) : field(data, 0, data.length);
      continue;
    }
    const prefix = field(header, 345, 155);
    const name = field(header, 0, 100);
    const path = longName ?? (prefix ? `${prefix}/${name}` : name);
    longName = undefined;
    const type = typeFlag === '0' || typeFlag === '\0' ? 'file' : typeFlag === '5' ? 'directory' : 'other';
    entries.push({ path, type, mode: octal(header, 100, 8) || 0, data });
  }
  return entries;
}

/** Resolves an entry path below `destination`, refusing any path that would leave it. */
function safeJoin(destination: string, entryPath: string): string {
  const relative = normalize(entryPath);
  if (relative.startsWith(sep) || relative === '..' || relative.startsWith(`..${sep}`)) {
    throw new Error(`tar entry "${entryPath}" would be written outside ${destination}`);
  }
  return join(destination, relative);
}

/** Writes the files and folders of a tar archive below `destination`. */
export function extractTar(archive: Uint8Array, destination: string): string[] {
  const written: string[] = [];
  for (const entry of readTar(archive)) {
    if (entry.type === 'other') continue;
    const target = safeJoin(destination, entry.path);
    if (entry.type === 'directory') {
      mkdirSync(target, { recursive: true });
    } else {
      mkdirSync(dirname(target), { recursive: true });
      // Keep the execute bits (shared libraries), always readable and writable by the owner.
      writeFileSync(target, entry.data, { mode: (entry.mode & 0o777) | 0o600 });
      written.push(entry.path);
    }
  }
  return written;
}
