/**
 * What the library reads of its own WGSL with wgsl_reflect (struct layouts, `const` values,
 * module-scope bindings, compute workgroup sizes) lies outside function bodies, and the bodies are
 * most of the text: the prelude is thousands of lines of functions. wgsl_reflect parses every body
 * and walks each function's AST for the resources it uses, so reflecting the prelude whole took most
 * of `createDevice` (Node on SwiftShader's host: about 0.5 s of 0.77 s) and, in a browser, every page
 * load paid it again. Here each text is reflected once, with its function bodies emptied.
 *
 * Invariant: `declarationsOf(code)` keeps every top-level declaration of `code` but the statements
 * inside function bodies, so structs, constants, aliases, overrides, module-scope variables and
 * entry points' attributes and signatures reflect as they do from `code` (checked for every shader
 * of the library in test/unit/operation/gpu/wgsl-declarations.test.ts). Not for questions about a
 * function's body (the resources an entry point uses, calls).
 */
import { Const, WgslParser, WgslReflect } from './wgsl-reflect.js';

/** `code` without comments (WGSL has no string literals, so braces outside comments are code). */
export function uncommented(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

/** `code` with every function body replaced by `{}` (and its comments removed). */
export function declarationsOf(code: string): string {
  const source = uncommented(code);
  const fn = /\bfn\s+[A-Za-z_]\w*/g;
  let out = '';
  let at = 0;
  for (let match = fn.exec(source); match; match = fn.exec(source)) {
    // A function's body is the first brace after its name: WGSL signatures hold none.
    const open = source.indexOf('{', match.index);
    if (open < 0) break;
    let depth = 1;
    let close = open + 1;
    for (; close < source.length && depth > 0; close++) {
      const char = source[close];
      if (char === '{') depth++;
      else if (char === '}') depth--;
    }
    out += `${source.slice(at, open)}{}`;
    at = close;
    fn.lastIndex = close;
  }
  return out + source.slice(at);
}

/**
 * Reflections by source text. The library's shaders are a fixed set of texts (a few prelude variants
 * and kernels), so the maps stay small; user shaders never come here.
 */
const reflections = new Map<string, WgslReflect>();
const constantSets = new Map<string, Record<string, number>>();

/** wgsl_reflect's reflection of `code`'s declarations (structs, bindings, entry points' attributes), made once per text. */
export function reflectDeclarations(code: string): WgslReflect {
  let reflect = reflections.get(code);
  if (!reflect) reflections.set(code, (reflect = new WgslReflect(declarationsOf(code))));
  return reflect;
}

/** Every top-level `const` of `code` with a scalar value, evaluated (wgsl_reflect's parser), once per text. */
export function wgslConstants(code: string): Record<string, number> {
  let constants = constantSets.get(code);
  if (constants) return constants;
  constants = {};
  for (const node of new WgslParser().parse(declarationsOf(code))) {
    if (node instanceof Const) {
      const value = node.value.constEvaluate(undefined as never) as unknown as { data?: ArrayLike<number> } | number;
      const scalar = typeof value === 'number' ? value : value.data?.[0];
      if (typeof scalar === 'number') constants[node.name] = scalar;
    }
  }
  constantSets.set(code, constants);
  return constants;
}
