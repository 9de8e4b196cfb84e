import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, onTestFinished, test } from 'vitest';
import { findBundlePackage } from '../../../../src/node/bundled-chromium.js';
import { extractTar, readTar } from '../../../../src/node/untar.js';

/** Builds one ustar header block (with a valid checksum) for the tests' archives. */
function header(
  name: string,
  size: number,
  type: string,
  options: { prefix?: string; mode?: number } = {},
): Uint8Array {
  const block = new Uint8Array(512);
  const put = (offset: number, text: string): void => block.set(new TextEncoder().encode(text), offset);
  put(0, name);
  put(100, `${(options.mode ?? 0o644).toString(8).padStart(7, '0')}\0`);
  put(124, `${size.toString(8).padStart(11, '0')}\0`);
  put(156, type);
  put(257, 'ustar\0');
  if (options.prefix) put(345, options.prefix);
  put(148, '        ');
  const sum = block.reduce((a, b) => a + b, 0);
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

function entry(
  name: string,
  body: string | Uint8Array,
  type = '0',
  options: { prefix?: string; mode?: number } = {},
): Uint8Array[] {
  const data = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
  padded.set(data);
  return [header(name, data.length, type, options), padded];
}

function archive(...parts: Uint8Array[][]): Uint8Array {
  const blocks = [...parts.flat(), new Uint8Array(1024)];
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let offset = 0;
  for (const block of blocks) {
    out.set(block, offset);
    offset += block.length;
  }
  return out;
}

/** A fresh folder, removed when the test finishes. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'untar-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('readTar', () => {
  test('reads files and folders with their sizes and modes', () => {
    const entries = readTar(archive(entry('dir/', '', '5'), entry('dir/a.txt', 'hello', '0', { mode: 0o755 })));
    expect(entries.map((e) => [e.path, e.type, e.mode, new TextDecoder().decode(e.data)])).toEqual([
      ['dir/', 'directory', 0o644, ''],
      ['dir/a.txt', 'file', 0o755, 'hello'],
    ]);
  });

  test('a body of exactly one block and one of a block plus one byte', () => {
    const entries = readTar(archive(entry('a', 'x'.repeat(512)), entry('b', 'y'.repeat(513)), entry('c', 'z')));
    expect(entries.map((e) => [e.path, e.data.length])).toEqual([
      ['a', 512],
      ['b', 513],
      ['c', 1],
    ]);
  });

  test('joins the ustar prefix field with the name', () => {
    expect(readTar(archive(entry('file.bin', 'x', '0', { prefix: 'long/prefix' })))[0]?.path).toBe(
      'long/prefix/file.bin',
    );
  });

  test('takes long paths from pax and GNU long-name headers, for the next entry only', () => {
    const long = `${'d'.repeat(120)}/file`;
    const entries = readTar(
      archive(
        entry('PaxHeader', `${long.length + 11} path=${long}\n`, 'x'),
        entry('short', '1'),
        entry('././@LongLink', `${long}2\0`, 'L'),
        entry('short2', '2'),
        entry('plain', '3'),
      ),
    );
    expect(entries.map((e) => e.path)).toEqual([long, `${long}2`, 'plain']);
  });

  test('a header whose checksum does not match is an error', () => {
    const whole = archive(entry('a', 'x'));
    whole[0] = 'b'.charCodeAt(0);
    expect(() => readTar(whole)).toThrow(/corrupt: checksum/);
  });

  test('a size field that is not octal is an error, not an empty file', () => {
    const whole = archive(entry('a', 'x'));
    whole.set(new TextEncoder().encode('0000000009x\0'), 124);
    // Keep the checksum valid, so only the size is wrong.
    whole.set(new TextEncoder().encode('        '), 148);
    const sum = whole.subarray(0, 512).reduce((a, b) => a + b, 0);
    whole.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    expect(() => readTar(whole)).toThrow(/unreadable size/);
  });

  test('a truncated archive is an error', () => {
    const whole = archive(entry('a', 'x'.repeat(2000)));
    expect(() => readTar(whole.subarray(0, 1024))).toThrow(/truncated/);
  });
});

describe('extractTar', () => {
  test('writes files and folders and skips other entry types', () => {
    const dir = tempDir();
    const written = extractTar(
      archive(entry('sub/', '', '5'), entry('sub/lib.so', 'ELF', '0', { mode: 0o755 }), entry('link', '', '2')),
      dir,
    );
    expect(written).toEqual(['sub/lib.so']);
    expect(readFileSync(join(dir, 'sub/lib.so'), 'utf8')).toBe('ELF');
    expect(statSync(join(dir, 'sub/lib.so')).mode & 0o777).toBe(0o755);
    expect(existsSync(join(dir, 'link'))).toBe(false);
  });

  for (const path of ['../escape.txt', '/etc/escape.txt', 'a/../../escape.txt']) {
    test(`refuses a path that leaves the destination: ${path}`, () => {
      expect(() => extractTar(archive(entry(path, 'x')), tempDir())).toThrow(/outside/);
    });
  }
  test('control: a path with .. that stays inside is written', () => {
    const dir = tempDir();
    extractTar(archive(entry('a/../inside.txt', 'ok')), dir);
    expect(readFileSync(join(dir, 'inside.txt'), 'utf8')).toBe('ok');
  });

  test("unpacks @sparticuz/chromium's real SwiftShader archive", () => {
    const dir = tempDir();
    extractTar(brotliDecompressSync(readFileSync(join(findBundlePackage().binDir, 'swiftshader.tar.br'))), dir);
    expect(readdirSync(dir).sort()).toEqual(
      expect.arrayContaining(['libvk_swiftshader.so', 'libvulkan.so.1', 'vk_swiftshader_icd.json']),
    );
    expect(readFileSync(join(dir, 'libvulkan.so.1')).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  });
});
