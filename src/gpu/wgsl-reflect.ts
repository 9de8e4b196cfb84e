/**
 * The one import of wgsl_reflect. Its ES module file is named by path: the package's `main` is a
 * CommonJS file in a `"type": "module"` package, which Node.js refuses, while browsers and bundlers
 * would take `module`. Naming the file works in Node.js, vitest, vite and the browser alike.
 */
export { Const, ResourceType, WgslParser, WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
export type { FunctionInfo, MemberInfo, VariableInfo } from 'wgsl_reflect';
