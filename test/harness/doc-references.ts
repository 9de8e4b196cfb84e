/**
 * Checks what the README and docs/*.md say against the tree: the repo paths they name (in code spans,
 * code blocks and links) exist, every `npm run X` / `npm start` / `npm test` names a script of
 * package.json, every count of figures ("ten figures", "10 figures") is the length of the bench's
 * FIGURES list, every export of src/index.ts is named in docs/api.md, and a code example a test runs
 * as written is that test's code, statement for statement. Pure functions over text
 * plus one loader of the tree's facts, so a test can plant a wrong doc string and see it reported.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** What a doc is checked against. */
export interface DocContext {
  /** The project root, where repo-relative paths are resolved. */
  root: string;
  scripts: ReadonlySet<string>;
  figureCount: number;
  /** The root's entries: a code span names a repo path only when its first segment is one of these. */
  topLevel: ReadonlySet<string>;
  /** Build outputs (.gitignore's folders): a path through one is not expected in a fresh clone. */
  generated: ReadonlySet<string>;
  exists(repoPath: string): boolean;
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** The figure ids of bench/suite/suite.ts's FIGURES list, read from its source. */
export function figureIds(suiteSource: string): string[] {
  const start = suiteSource.indexOf('export const FIGURES');
  if (start < 0) throw new Error('bench/suite/suite.ts: no `export const FIGURES`');
  const list = suiteSource.slice(start, suiteSource.indexOf('];', start));
  return [...list.matchAll(/\{\s*id:\s*'([^']+)'/g)].map((match) => match[1] as string);
}

/** The names src/index.ts exports, and the modules it re-exports whole (`export * from`). */
export function exportedNames(indexSource: string): { names: string[]; starModules: string[] } {
  const names: string[] = [];
  for (const block of indexSource.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of (block[1] as string).split(',')) {
      const words = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      const name = words[words.length - 1]?.trim();
      if (name) names.push(name);
    }
  }
  for (const declared of indexSource.matchAll(
    /export\s+(?:declare\s+)?(?:async\s+)?(?:function|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
  ))
    names.push(declared[1] as string);
  const starModules = [...indexSource.matchAll(/export\s+(?:type\s+)?\*\s+from\s+'\.\/([^']+)'/g)].map(
    (match) => `src/${(match[1] as string).replace(/\.js$/, '.ts')}`,
  );
  return { names, starModules };
}

/** The tree's facts: package.json's scripts, the figure count, the root's entries, .gitignore's folders. */
export function loadDocContext(root: string): DocContext {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const generated = new Set(
    readFileSync(join(root, '.gitignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[\w.-]+\/$/.test(line))
      .map((line) => line.slice(0, -1)),
  );
  return {
    root,
    scripts: new Set(Object.keys(pkg.scripts)),
    figureCount: figureIds(readFileSync(join(root, 'bench/suite/suite.ts'), 'utf8')).length,
    topLevel: new Set(readdirSync(root).filter((name) => name !== 'node_modules' && name !== '.git')),
    generated,
    exists: (repoPath) => existsSync(join(root, repoPath)),
  };
}

/** `text` with fenced code blocks blanked out (line numbers kept), for the inline-span scan. */
function withoutFences(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** A code span's text when it reads as a repo-relative path (no spaces, globs or placeholders). */
function spanPath(span: string, context: DocContext): string | undefined {
  if (!/^\.?[\w-][\w./-]*$/.test(span) || span.includes('..')) return undefined;
  const segments = span.split('/').filter((segment) => segment !== '');
  const first = segments[0] as string;
  // A bare file name is a path only when it names a root file (README.md, package.json).
  if (segments.length === 1 && !span.endsWith('/') && !/\.\w+$/.test(span)) return undefined;
  if (!context.topLevel.has(first)) return undefined;
  if (segments.some((segment) => context.generated.has(segment))) return undefined;
  return span;
}

/** The lines inside fenced code blocks of `text`, with their line numbers. */
function fencedLines(text: string): { text: string; line: number }[] {
  let fenced = false;
  const lines: { text: string; line: number }[] = [];
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (fenced) lines.push({ text: line, line: index + 1 });
  });
  return lines;
}

/**
 * The repo paths `text` names, with their lines: each word of an inline code span, and each word of
 * a line in a fenced code block (a command's script, a file it builds from), that reads as one.
 */
export function repoPathsIn(text: string, context: DocContext): { path: string; line: number }[] {
  const inline = withoutFences(text);
  const paths: { path: string; line: number }[] = [];
  const take = (words: string, line: number): void => {
    for (const word of words.split(/\s+/)) {
      const path = spanPath(word.replace(/[,;:]$/, ''), context);
      if (path !== undefined) paths.push({ path, line });
    }
  };
  for (const match of inline.matchAll(/`([^`\n]+)`/g)) take(match[1] as string, lineOf(inline, match.index));
  for (const { text: line, line: number } of fencedLines(text)) take(line, number);
  return paths;
}

/**
 * The problems of one doc (`docPath` repo-relative, e.g. 'docs/api.md'), each as
 * "docPath:line: what is wrong". Links resolve from the doc's folder; code spans from the root.
 */
export function checkDoc(docPath: string, text: string, context: DocContext): string[] {
  const problems: string[] = [];
  const inline = withoutFences(text);
  for (const { path, line } of repoPathsIn(text, context))
    if (!context.exists(path)) problems.push(`${docPath}:${line}: path \`${path}\` does not exist`);
  for (const match of inline.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (match[1] as string).split('#')[0] as string;
    if (target === '' || /^[a-z]+:/.test(target)) continue;
    const path = normalize(join(dirname(docPath), target));
    if (path.startsWith('..') || !context.exists(path))
      problems.push(`${docPath}:${lineOf(inline, match.index)}: link ${match[1]} (${path}) does not exist`);
  }
  for (const match of text.matchAll(/\bnpm\s+(?:run(?:\s+-s)?\s+([\w-]+(?::[\w-]+)*)|(start|test)\b)/g)) {
    const script = (match[1] ?? match[2]) as string;
    if (!context.scripts.has(script))
      problems.push(`${docPath}:${lineOf(text, match.index)}: npm script '${script}' is not in package.json`);
  }
  for (const match of text.matchAll(/\b([A-Za-z]+|\d+)\s+figures\b/g)) {
    const word = (match[1] as string).toLowerCase();
    const count = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word);
    if (count >= 0 && count !== context.figureCount)
      problems.push(
        `${docPath}:${lineOf(text, match.index)}: says "${match[0]}", the bench has ${context.figureCount} figures`,
      );
  }
  return problems;
}

/** The exports of src/index.ts that docs/api.md names in no code span, and re-exported modules it omits. */
export function missingFromApi(apiText: string, indexSource: string): string[] {
  const named = new Set<string>();
  for (const match of apiText.matchAll(/`([^`\n]+)`/g))
    for (const word of (match[1] as string).split(/[^\w$/.-]+/)) named.add(word);
  const { names, starModules } = exportedNames(indexSource);
  const wordsOf = new Set([...named].flatMap((span) => span.split(/[^\w$]+/)));
  return [
    ...names.filter((name) => !wordsOf.has(name)),
    ...starModules.filter((module) => !named.has(module)).map((module) => `export * of ${module}`),
  ];
}

/** Code without comments, whitespace and trailing commas, so formatting and remarks never count. */
const compact = (code: string): string =>
  code
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s+/g, '')
    .replace(/,(?=[}\])])/g, '');

/** The `ts` code blocks of a markdown text, in order. */
export function tsBlocks(text: string): string[] {
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => match[1] as string);
}

/**
 * The statements of a doc's example (imports left out) that `source`, a test that runs it as written,
 * does not contain: compared without comments and whitespace, each statement as a substring.
 */
export function statementsNotIn(example: string, source: string): string[] {
  const code = compact(source);
  return example
    .split(/;\s*(?:\/\/[^\n]*)?\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '' && !statement.startsWith('import '))
    .filter((statement) => !code.includes(compact(statement)));
}
