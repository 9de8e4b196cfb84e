// wgsl_reflect's package.json points Node.js at a CommonJS file inside a "type": "module" package,
// which Node cannot load; its ES module file is imported by path instead (src/gpu/wgsl-reflect.ts),
// with the package's own types.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
