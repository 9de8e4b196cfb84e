/**
 * Entry points of user WGSL turned into plain functions, for wrapper entry points: the fragment
 * module must not keep the vertex entry point (it would reach the fragment stage's writable fault
 * log from a vertex shader), and the vertex-stage replay (shaders/vertex_replay.wgsl) calls the
 * vertex entry point from a compute shader, and compute code that makes page handles logs their bad
 * offsets after its entry point returns (shaders/compute_entry.wgsl). All need `@vertex fn
 * vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4f {` to read `fn vs(v: u32) -> vec4f {`.
 *
 * Works on the source text: comments are masked (kept in place, ignored when searching), the
 * function's header (the attributes before `fn`, the parameter list, the return type) loses its
 * attributes, and everything else is left byte for byte, so compiler line numbers do not move.
 * GPU-free.
 */
import { WgslReflect } from './wgsl-reflect.js';

/** `code` with every comment replaced by spaces (newlines kept): offsets and lines stay. */
function maskComments(code: string): string {
  let out = '';
  let i = 0;
  while (i < code.length) {
    if (code.startsWith('//', i)) {
      const end = code.indexOf('\n', i);
      const stop = end < 0 ? code.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (code.startsWith('/*', i)) {
      // WGSL block comments nest.
      let depth = 0;
      let j = i;
      while (j < code.length) {
        if (code.startsWith('/*', j)) {
          depth++;
          j += 2;
        } else if (code.startsWith('*/', j)) {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else j++;
      }
      out += code.slice(i, j).replace(/[^\n]/g, ' ');
      i = j;
    } else {
      out += code[i];
      i++;
    }
  }
  return out;
}

/**
 * `original` with its `@name` and `@name(...)` attributes blanked (replaced by spaces, newlines kept);
 * `masked` is the same text with comments masked, where attributes are looked for.
 */
function stripAttributes(original: string, masked: string): string {
  let out = '';
  let i = 0;
  while (i < masked.length) {
    const attribute = /^@\s*[A-Za-z_][A-Za-z0-9_]*/.exec(masked.slice(i));
    if (!attribute) {
      out += original[i];
      i++;
      continue;
    }
    let j = i + attribute[0].length;
    while (j < masked.length && /\s/.test(masked[j] as string)) j++;
    if (masked[j] === '(') {
      let depth = 0;
      for (; j < masked.length; j++) {
        if (masked[j] === '(') depth++;
        else if (masked[j] === ')' && --depth === 0) {
          j++;
          break;
        }
      }
    } else j = i + attribute[0].length;
    out += original.slice(i, j).replace(/[^\n]/g, ' ');
    i = j;
  }
  return out;
}

/** Where function `name`'s header is: from its attributes to its body's brace, and its parameter list. */
function locateHeader(
  masked: string,
  name: string,
): { start: number; open: number; paramsStart: number; paramsEnd: number } {
  const match = new RegExp(`\\bfn\\s+${name}\\s*\\(`, 'g').exec(masked);
  if (!match) throw new Error(`no function ${name} in the shader code`);
  // The attributes before `fn`: back to the end of the previous declaration.
  let start = match.index;
  while (start > 0 && !/[;}]/.test(masked[start - 1] as string)) start--;
  const paramsStart = match.index + match[0].length;
  let depth = 1;
  let paramsEnd = paramsStart;
  for (; paramsEnd < masked.length && depth > 0; paramsEnd++) {
    if (masked[paramsEnd] === '(') depth++;
    else if (masked[paramsEnd] === ')') depth--;
  }
  paramsEnd--;
  // The body's opening brace ends the header (the return type holds no braces).
  const open = masked.indexOf('{', paramsEnd);
  if (open < 0) throw new Error(`function ${name} has no body`);
  return { start, open, paramsStart, paramsEnd };
}

/**
 * `code` with the entry point `name` demoted to a plain function: its stage and IO attributes are
 * gone, the rest is unchanged. Throws when there is no such function.
 */
export function demoteEntryPoint(code: string, name: string): string {
  const masked = maskComments(code);
  const { start, open } = locateHeader(masked, name);
  return code.slice(0, start) + stripAttributes(code.slice(start, open), masked.slice(start, open)) + code.slice(open);
}

/** The attributes of entry point `name` as written (`@compute @workgroup_size(64)`), comments left out. */
export function entryPointAttributes(code: string, name: string): string {
  const masked = maskComments(code);
  const { start } = locateHeader(masked, name);
  const fn = new RegExp(`\\bfn\\s+${name}\\s*\\(`).exec(masked.slice(start));
  return masked.slice(start, start + (fn?.index ?? 0)).trim();
}

/**
 * The signature of entry point `name` as written: its parameter list and result (attributes
 * included, for a wrapper to repeat) and its parameters' names (for the wrapper's call).
 */
export function entryPointSignature(code: string, name: string): { params: string; result: string; names: string[] } {
  const masked = maskComments(code);
  const { open, paramsStart, paramsEnd } = locateHeader(masked, name);
  const plainParams = stripAttributes(masked.slice(paramsStart, paramsEnd), masked.slice(paramsStart, paramsEnd));
  const names: string[] = [];
  let depth = 0;
  let piece = '';
  for (const char of `${plainParams},`) {
    if (char === '<' || char === '(') depth++;
    if (char === '>' || char === ')') depth--;
    if (char === ',' && depth === 0) {
      const param = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(piece);
      if (param) names.push(param[1] as string);
      piece = '';
    } else piece += char;
  }
  return { params: code.slice(paramsStart, paramsEnd), result: code.slice(paramsEnd + 1, open).trim(), names };
}

/**
 * The call of vertex entry point `name` for the replay: each parameter gets `vertexIndex` or
 * `instanceIndex` by its builtin; a struct parameter is constructed member by member.
 */
export function vertexCall(code: string, name: string, vertexIndex: string, instanceIndex: string): string {
  const reflect = new WgslReflect(code);
  const entry = reflect.entry.vertex.find((e) => e.name === name);
  const fn = reflect.functions.find((f) => f.name === name);
  if (!entry || !fn) throw new Error(`no vertex entry point ${name} in the shader code`);
  // wgsl_reflect lists the inputs flattened: parameters in order, a struct's members in order.
  const inputs = [...entry.inputs];
  const value = (): string => {
    const input = inputs.shift();
    if (input?.locationType !== 'builtin')
      throw new Error(
        `vertex entry point ${name} takes a @location input; vertices come from memory here, so only vertex_index and instance_index can be inputs`,
      );
    if (input.location === 'vertex_index') return vertexIndex;
    if (input.location === 'instance_index') return instanceIndex;
    throw new Error(
      `vertex entry point ${name} takes builtin ${String(input.location)}, which the emulator does not provide`,
    );
  };
  const args = fn.arguments.map((argument) => {
    const struct = reflect.structs.find((s) => s.name === argument.type.name);
    return struct ? `${struct.name}(${struct.members.map(() => value()).join(', ')})` : value();
  });
  return `${name}(${args.join(', ')})`;
}
