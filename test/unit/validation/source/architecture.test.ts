/**
 * The layers of DESIGN.md, checked on the sources: imports point down only (residency → the device
 * and its queues → emulator → the command lists → their machinery (src/commands) → the other D3D12
 * objects → validation, gpu, memory → api), `src/api`
 * imports nothing from the project, nothing below the facade imports it, the facade never imports
 * the residency manager, and there is no import cycle anywhere in `src/`, type-only imports included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../../harness/paths.js';

const SRC = join(PROJECT_ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/g;

/** Every file's project imports (relative paths, `?raw` assets left out), as paths from src/. */
function importGraph(): Map<string, string[]> {
  const files = sources(SRC);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] as string;
      if (spec.includes('?')) continue;
      const target = normalize(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      if (known.has(target)) targets.push(relative(SRC, target));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/**
 * src/d3d12 holds the D3D12 objects, one per interface, in three layers around their machinery:
 *   - owners: the objects that own the emulator's machinery (src/emulator) and reach it through their
 *     device context (the device, its memory calls, createDevice, the command queue) sit above it;
 *   - lists: the command lists, which the emulator creates, sit below it and above the command-list
 *     machinery (src/commands: recording, state tracking, copies, clears, draws) that they record through;
 *   - d3d12: the objects both machineries create and read (heaps, resources, fences, query heaps,
 *     pipeline states, root signatures, descriptor heaps, swap chains, allocators) sit below src/commands.
 */
const MACHINERY_OWNERS = [
  'd3d12/device.ts',
  'd3d12/device-memory.ts',
  'd3d12/create-device.ts',
  'd3d12/command-queue.ts',
];
const COMMAND_LISTS = ['d3d12/command-list.ts', 'd3d12/command-list-base.ts'];
const layer = (path: string): string =>
  MACHINERY_OWNERS.includes(path) ? 'owners' : COMMAND_LISTS.includes(path) ? 'lists' : (path.split('/')[0] ?? '');
const ENTRIES = ['index.ts', 'node/index.ts'];

/** Which layers each layer may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  api: [],
  memory: ['api'],
  validation: ['api', 'memory'],
  gpu: ['api', 'memory'],
  d3d12: ['api', 'memory', 'validation', 'gpu'],
  // The command-list machinery: what the lists record, from the objects they name.
  commands: ['api', 'memory', 'validation', 'gpu', 'd3d12'],
  lists: ['api', 'validation', 'd3d12', 'commands'],
  // The queue's backend writes back a list's CPU-visible writes (commands/recorded-commands.ts).
  emulator: ['api', 'memory', 'validation', 'gpu', 'd3d12', 'commands', 'lists'],
  owners: ['api', 'memory', 'validation', 'gpu', 'd3d12', 'commands', 'lists', 'emulator'],
  // Clients of the public API; the emulator's files define some public types (Pageable, MemoryStats).
  residency: ['api', 'd3d12', 'lists', 'owners', 'emulator'],
  // d3d12-webgpu/validate: a client of the public API, as the residency manager is (issue 13); src/commands
  // defines two public types it names (TextureCopyLocation, ResourceBarrier).
  validate: ['api', 'd3d12', 'commands', 'lists', 'owners', 'emulator', 'residency', 'testing', 'index.ts'],
  // d3d12-webgpu/testing: the test hooks, which reach the device's context and the residency manager's records.
  testing: ['api', 'd3d12', 'owners', 'emulator', 'validation', 'residency'],
  // d3d12-webgpu/streaming: the tile streamer, a client of the main entry (src/index.ts) alone.
  streaming: ['index.ts'],
  // d3d12-webgpu/d3dx12: d3dx12.h's helpers, clients of the main entry; footprints and formats from
  // memory/, the CPU-accessible heap rule (updateSubresources' intermediate) from validation/.
  d3dx12: ['index.ts', 'memory', 'validation'],
  node: ['api', 'gpu'],
  types: [],
};

/** `file -> target` for every import that points at a layer its layer may not import. */
function wrongImports(graph: Map<string, string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = layer(file);
    // The package entries (src/index.ts; src/node/index.ts, which adds to it) export from every layer.
    if (ENTRIES.includes(file)) continue;
    for (const target of targets) {
      const to = layer(target);
      if (to !== from && !(ALLOWED[from] ?? []).includes(to)) wrong.push(`${file} -> ${target}`);
    }
  }
  return wrong;
}

/** The import cycles of `graph`: Tarjan's strongly connected components of more than one file (or a file importing itself). */
function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

describe('layers', () => {
  const graph = importGraph();

  test('imports point down only', () => {
    expect(wrongImports(graph)).toEqual([]);
  });

  test('no import cycle in src/ (types included)', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  test('the check sees imports: src/d3d12/device.ts imports the api layer and validation', () => {
    const targets = graph.get('d3d12/device.ts') ?? [];
    expect(targets).toContain('api/errors.ts');
    expect(targets.some((target) => target.startsWith('validation/'))).toBe(true);
  });

  test('the checks see what they look for: planted upward imports and cycles are reported, a clean graph is not', () => {
    const planted = new Map([
      ['validation/heap.ts', ['api/types.ts', 'd3d12/heap.ts']], // up into the facade
      ['d3d12/heap.ts', ['d3d12/resource.ts', 'residency/residency-set.ts']], // the facade importing the manager
      ['d3d12/fence.ts', ['emulator/memory-backing.ts']], // an object below the machinery importing it
      ['emulator/memory-backing.ts', ['d3d12/heap.ts', 'd3d12/device.ts']], // the machinery importing its owner
      ['d3d12/device.ts', ['emulator/gpu-backend.ts', 'd3d12/info-queue.ts']], // the owner importing both: fine
      ['d3d12/query-heap.ts', ['commands/buffer-copies.ts']], // an object below the list machinery importing it
      ['commands/draw-state.ts', ['d3d12/command-list.ts', 'd3d12/swap-chain.ts']], // the machinery importing its list
      ['d3d12/command-list.ts', ['commands/root-arguments.ts', 'd3d12/pipeline-state.ts']], // a list importing both: fine
      ['d3d12/resource.ts', ['d3d12/heap.ts']], // a two-file cycle
      ['memory/a.ts', ['memory/b.ts']],
      ['memory/b.ts', ['memory/c.ts']],
      ['memory/c.ts', ['memory/a.ts']], // a three-file cycle
      ['gpu/self.ts', ['gpu/self.ts']], // a file importing itself
      ['index.ts', ['residency/residency-set.ts']], // the entry may export from every layer
      ['residency/residency-set.ts', ['d3d12/heap.ts', 'api/errors.ts']],
      ['api/types.ts', []],
      ['api/errors.ts', []],
    ]);
    expect(wrongImports(planted)).toEqual([
      'validation/heap.ts -> d3d12/heap.ts',
      'd3d12/heap.ts -> residency/residency-set.ts',
      'd3d12/fence.ts -> emulator/memory-backing.ts',
      'emulator/memory-backing.ts -> d3d12/device.ts',
      'd3d12/query-heap.ts -> commands/buffer-copies.ts',
      'commands/draw-state.ts -> d3d12/command-list.ts',
    ]);
    // heap -> residency-set -> heap joins the manager to the heap/resource cycle; validation/heap.ts only points in.
    expect(importCycles(planted)).toEqual([
      ['d3d12/heap.ts', 'd3d12/resource.ts', 'residency/residency-set.ts'],
      ['gpu/self.ts'],
      ['memory/a.ts', 'memory/b.ts', 'memory/c.ts'],
    ]);
    const clean = new Map([
      ['d3d12/heap.ts', ['api/types.ts', 'validation/heap.ts']],
      ['validation/heap.ts', ['api/types.ts']],
      ['api/types.ts', []],
    ]);
    expect([wrongImports(clean), importCycles(clean)]).toEqual([[], []]);
  });
});

/**
 * Members of project classes that `files` reach although they are not public API: declarations in
 * another layer marked `@internal` (what the published types strip), or private/protected ones.
 */
function internalUses(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const found = new Set<string>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`internalUses: ${file} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const symbol = checker.getSymbolAtLocation(
          ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression,
        );
        for (const declaration of symbol?.declarations ?? []) {
          const where = declaration.getSourceFile().fileName;
          if (!where.startsWith(SRC) || layer(relative(SRC, where)) === layer(relative(SRC, file))) continue;
          const internal = ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal');
          const hidden =
            ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
          if (internal || hidden)
            found.add(`${relative(SRC, file)}: ${node.getText(source)} (${relative(SRC, where)})`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].sort();
}

/** A test that type-checks part of src/ takes seconds, more on a loaded machine. */
const PROGRAM_TIMEOUT = 60_000;

describe('the residency manager is a client of the D3D12 API', () => {
  test(
    'src/residency uses no @internal, private or protected member of the facade',
    () => {
      expect(internalUses(sources(join(SRC, 'residency')))).toEqual([]);
    },
    PROGRAM_TIMEOUT,
  );

  test(
    'the check sees internal uses: a planted client (test/unit/fixtures/internal-use.ts) is reported',
    () => {
      const uses = internalUses([join(PROJECT_ROOT, 'test/unit/fixtures/internal-use.ts')]).map((use) =>
        use.replace(/^.*: /, ''),
      );
      expect(uses).toEqual([
        'device.context (d3d12/device-memory.ts)',
        "device['context'] (d3d12/device-memory.ts)",
        'heap.residencyReferences (d3d12/heap.ts)',
      ]);
    },
    PROGRAM_TIMEOUT,
  );
});

/** The members of the classes in `file` marked `@internal`, as `Class.member`. */
function internalMembers(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isClassDeclaration(statement) || !statement.name) continue;
    for (const member of statement.members) {
      if (!ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal')) continue;
      const name = ts.isConstructorDeclaration(member) ? 'constructor' : (member.name?.getText(source) ?? '?');
      found.push(`${statement.name.text}.${name}`);
    }
  }
  return found;
}

/**
 * Device reaches its machinery through its context (src/emulator/device-context.ts), not through
 * internal members; its two files (device-memory.ts holds the memory calls Device inherits) count together.
 */
const MAX_DEVICE_INTERNALS = 4;

describe('the facade reaches the machinery through one context object', () => {
  test(`Device has at most ${MAX_DEVICE_INTERNALS} @internal members`, () => {
    const members = ['d3d12/device.ts', 'd3d12/device-memory.ts'].flatMap((file) =>
      internalMembers(file, readFileSync(join(SRC, file), 'utf8')),
    );
    expect(members).toContain('DeviceMemory.constructor');
    expect(members.length).toBeLessThanOrEqual(MAX_DEVICE_INTERNALS);
  });

  test('the count sees @internal members: constructors, methods and accessors', () => {
    const text = [
      'class D {',
      '  /** @internal */ constructor() {}',
      '  /** @internal */ get a(): number { return 1; }',
      '  /** @internal */ b(): void {}',
      '  /** Public. */ c(): void {}',
      '}',
    ].join('\n');
    expect(internalMembers('d.ts', text)).toEqual(['D.constructor', 'D.a', 'D.b']);
  });
});

/** Compiler options for the programs the checks below type (src/ as tsconfig.json reads it; lib and WebGPU types are not what they look at). */
const CHECK_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  types: [],
};

const isInternal = (declaration: ts.Declaration): boolean =>
  ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal');

const isHidden = (declaration: ts.Declaration): boolean =>
  (ts.getCombinedModifierFlags(declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
  ((ts.isPropertyDeclaration(declaration) || ts.isMethodDeclaration(declaration)) &&
    ts.isPrivateIdentifier(declaration.name));

/**
 * The `…ForTesting` names in the published types of `entry`: its exports and everything their types
 * reach (members of classes, interfaces and type literals, static members, parameters, return types,
 * type arguments), each as the path it was first reached by (`run(options).codeForTesting`). A
 * declaration marked @internal is left out with what only it reaches (tsconfig.build.json's
 * stripInternal drops it from the .d.ts), and so are declarations outside the program's own sources
 * (lib, @webgpu/types).
 */
function publishedTestHooks(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const entrySource = program.getSourceFile(entry);
  const module = entrySource && checker.getSymbolAtLocation(entrySource);
  if (!module) throw new Error(`publishedTestHooks: ${entry} is not a module of the program`);
  const found: string[] = [];
  const seenSymbols = new Set<ts.Symbol>();
  const seenTypes = new Set<ts.Type>();
  const visitType = (type: ts.Type, path: string): void => {
    if (seenTypes.has(type)) return;
    seenTypes.add(type);
    if (type.isUnionOrIntersection()) for (const part of type.types) visitType(part, path);
    if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference)
      for (const argument of checker.getTypeArguments(type as ts.TypeReference)) visitType(argument, `${path}<>`);
    for (const argument of type.aliasTypeArguments ?? []) visitType(argument, `${path}<>`);
    for (const property of checker.getPropertiesOfType(type)) visitSymbol(property, `${path}.${property.name}`);
    for (const info of checker.getIndexInfosOfType(type)) visitType(info.type, `${path}[]`);
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      if (signature.declaration && isInternal(signature.declaration)) continue;
      for (const parameter of signature.parameters) visitSymbol(parameter, `${path}(${parameter.name})`);
      visitType(signature.getReturnType(), `${path}()`);
    }
  };
  const visitSymbol = (reached: ts.Symbol, path: string): void => {
    const symbol = reached.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(reached) : reached;
    if (seenSymbols.has(symbol)) return;
    seenSymbols.add(symbol);
    const declarations = (symbol.declarations ?? []).filter((d) => !d.getSourceFile().isDeclarationFile);
    if (declarations.length === 0 || declarations.every(isInternal)) return;
    if (reached.name.endsWith('ForTesting') || symbol.name.endsWith('ForTesting')) found.push(path);
    // A private or protected member shows its name in the .d.ts, not its type.
    if (declarations.every(isHidden)) return;
    if (symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))
      visitType(checker.getDeclaredTypeOfSymbol(symbol), path);
    if (symbol.flags & ts.SymbolFlags.Value) visitType(checker.getTypeOfSymbol(symbol), path);
  };
  for (const exported of checker.getExportsOfModule(module)) visitSymbol(exported, exported.name);
  return found;
}

/** A program over `files` (absolute paths to text) alone, for the checks' controls. */
function plantedProgram(files: Record<string, string>): ts.Program {
  const host = ts.createCompilerHost(CHECK_OPTIONS);
  return ts.createProgram(Object.keys(files), CHECK_OPTIONS, {
    ...host,
    getSourceFile: (name, language) =>
      files[name] === undefined
        ? host.getSourceFile(name, language)
        : ts.createSourceFile(name, files[name], language, true),
    fileExists: (name) => files[name] !== undefined || host.fileExists(name),
    directoryExists: (name) =>
      Object.keys(files).some((file) => file.startsWith(`${name}/`)) || (host.directoryExists?.(name) ?? false),
    readFile: (name) => files[name] ?? host.readFile(name),
  });
}

describe('test hooks leave the main entry (they live in d3d12-webgpu/testing, src/testing/)', () => {
  test('no class of src/d3d12 (what src/index.ts exports) has a public …ForTesting member', () => {
    const members = sources(join(SRC, 'd3d12')).flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      return source.statements.filter(ts.isClassDeclaration).flatMap((node) =>
        node.members
          .filter((member) => member.name?.getText(source).endsWith('ForTesting'))
          .filter((member) => !ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal'))
          .map((member) => `${node.name?.text}.${member.name?.getText(source)}`),
      );
    });
    expect(members).toEqual([]);
    expect(readFileSync(join(SRC, 'index.ts'), 'utf8')).not.toContain('ForTesting');
  });

  test(
    "the main entry's published types name no …ForTesting: not an export, nor a member of an exported class, interface or type, nor what their signatures reach",
    () => {
      const entry = join(SRC, 'index.ts');
      const program = ts.createProgram([entry], CHECK_OPTIONS);
      // The walk reaches the facade's members and the option interfaces of the WebGPU helpers.
      expect(program.getSourceFile(join(SRC, 'gpu/smoke-pattern.ts'))).toBeDefined();
      expect(publishedTestHooks(program, entry)).toEqual([]);
    },
    PROGRAM_TIMEOUT,
  );

  test('control: planted hooks in exports, members, options and return types are found; @internal ones and unexported ones are not', () => {
    const program = plantedProgram({
      '/planted/index.ts': [
        "export { run, type Options } from './a.js';",
        "export { Widget } from './b.js';",
        "export { make } from './c.js';",
        'export type Alias = { label: string; aliasForTesting: number };',
        'export function resetForTesting(): void {}',
      ].join('\n'),
      '/planted/a.ts': [
        'export interface Options {',
        '  label?: string;',
        '  codeForTesting?: string;',
        '  /** @internal */',
        '  hiddenForTesting?: string;',
        '}',
        'export function run(options: Options = {}): void { void options; }',
      ].join('\n'),
      '/planted/b.ts': [
        'interface Internal { stateForTesting: number }',
        'interface Owner { ownerForTesting: number }',
        'export class Widget {',
        '  /** @internal */',
        '  constructor(private readonly owner: Owner = { ownerForTesting: 1 }) {}',
        '  private secret: Internal = { stateForTesting: 2 };',
        '  private peekForTesting(): number { return this.owner.ownerForTesting + this.secret.stateForTesting; }',
        '  /** @internal */',
        '  internal: Internal = { stateForTesting: 1 };',
        '  /** @internal */',
        '  hiddenForTesting(): void {}',
        '  pokeForTesting(): void {}',
        '  static createForTesting(): Widget { return new Widget(); }',
        '}',
      ].join('\n'),
      '/planted/c.ts': [
        'interface Deep { deepForTesting: boolean }',
        'interface Made { ready: Promise<Deep[]> }',
        'export interface Unexported { notExportedForTesting: number }',
        'export function make(): Made { return { ready: Promise.resolve([]) }; }',
      ].join('\n'),
    });
    expect(publishedTestHooks(program, '/planted/index.ts').sort()).toEqual(
      [
        'run(options).codeForTesting',
        'Widget.pokeForTesting',
        'Widget.peekForTesting',
        'Widget.createForTesting',
        'make().ready<><>.deepForTesting',
        'Alias.aliasForTesting',
        'resetForTesting',
      ].sort(),
    );
  });
});

describe('the validation layer (d3d12-webgpu/validate) is a client of the D3D12 API', () => {
  test(
    'src/validate uses no @internal, private or protected member of the facade or the residency manager',
    () => {
      const files = sources(join(SRC, 'validate'));
      expect(files.length).toBeGreaterThan(10);
      expect(internalUses(files)).toEqual([]);
    },
    PROGRAM_TIMEOUT,
  );
});

/** No source file longer than this: a file holds one job (issue 12). */
const MAX_SOURCE_LINES = 500;

/** `file: N lines` for each of `files` (path to text) longer than `limit` lines. */
function longFiles(files: Map<string, string>, limit: number): string[] {
  return [...files]
    .map(([file, text]) => ({ file, lines: text.split('\n').length }))
    .filter(({ lines }) => lines > limit)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
}

describe('file size', () => {
  test(`no file in src/ is longer than ${MAX_SOURCE_LINES} lines`, () => {
    expect(
      longFiles(
        new Map(sources(SRC).map((file) => [relative(SRC, file), readFileSync(file, 'utf8')])),
        MAX_SOURCE_LINES,
      ),
    ).toEqual([]);
  });

  test('the check counts lines: both sides of the limit', () => {
    const lines = (n: number): string => Array.from({ length: n }, (_, i) => `// ${i}`).join('\n');
    const files = new Map([
      ['at.ts', lines(MAX_SOURCE_LINES)],
      ['over.ts', lines(MAX_SOURCE_LINES + 1)],
      ['empty.ts', ''],
    ]);
    expect(longFiles(files, MAX_SOURCE_LINES)).toEqual([`over.ts: ${MAX_SOURCE_LINES + 1} lines`]);
  });
});

/**
 * No function in src/ longer than this (formatted code, `npm run format:check`): a function does one
 * thing. The conformance scenarios (src/validate/scenarios/) are scripts, read top to bottom, and exempt.
 */
const MAX_FUNCTION_LINES = 100;
const FUNCTION_LENGTH_EXEMPT = ['validate/scenarios/'];

/** `file:line name: N lines` for each function-like node with a body in `text` longer than `limit` lines. */
function longFunctions(file: string, text: string, limit: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (last - first + 1 > limit) found.push(`${file}:${first + 1} ${name}: ${last - first + 1} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function size', () => {
  test(`no function in src/ is longer than ${MAX_FUNCTION_LINES} lines (scenario scripts exempt)`, () => {
    const files = sources(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => !FUNCTION_LENGTH_EXEMPT.some((prefix) => file.startsWith(prefix)));
    expect(
      files.flatMap((file) => longFunctions(file, readFileSync(join(SRC, file), 'utf8'), MAX_FUNCTION_LINES)),
    ).toEqual([]);
  });

  test('the check measures functions: both sides of the limit, methods and arrows included', () => {
    const body = (n: number): string => Array.from({ length: n - 2 }, (_, i) => `  x += ${i};`).join('\n');
    const text = [
      `function at() {\n${body(MAX_FUNCTION_LINES)}\n}`,
      `function over() {\n${body(MAX_FUNCTION_LINES + 1)}\n}`,
      `class C {\n  method() {\n${body(MAX_FUNCTION_LINES + 1)}\n  }\n}`,
      `const arrow = () => {\n${body(MAX_FUNCTION_LINES + 1)}\n};`,
    ].join('\n');
    expect(longFunctions('f.ts', text, MAX_FUNCTION_LINES).map((line) => line.replace(/^f\.ts:\d+ /, ''))).toEqual([
      `over: ${MAX_FUNCTION_LINES + 1} lines`,
      `method: ${MAX_FUNCTION_LINES + 1} lines`,
      `(anonymous): ${MAX_FUNCTION_LINES + 1} lines`,
    ]);
  });
});
