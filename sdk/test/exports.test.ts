// The built SDK against its own declarations: build with tsup, read the export list of the bundled .d.ts
// with the TypeScript compiler, import the built ESM and CJS, and hold each to the other. Also what the
// bundle needs at run time (@ts-rest/core and zod only) and the names an editor shows for the answers.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';

const run = promisify(execFile);
const sdk = resolve(import.meta.dirname, '..');
const tsup = join(sdk, 'node_modules/tsup/dist/cli-default.js');

/** The module's exports as its declaration file states them: each name, and whether it is a value. */
function declaredExports(program: ts.Program, file: string): Map<string, boolean> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  assert.ok(source, `${file} is in the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  assert.ok(moduleSymbol, `${file} is a module`);
  const out = new Map<string, boolean>();
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const typeOnly = (symbol.declarations ?? []).some(
      (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || (ts.isNamedExports(d.parent) && d.parent.parent.isTypeOnly)),
    );
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    out.set(symbol.name, !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0);
  }
  return out;
}

const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
};

/** What an editor shows for each: the answers of the methods, by name. */
const PROBE = `import type { MindClient } from './index.js';
declare const client: MindClient;
export const tasksList = client.tasks.list();
export declare const tasksPage: Awaited<typeof tasksList>;
export const firstTask = tasksPage.data[0];
export const task = client.tasks.get('id');
export const deleted = client.tasks.delete('id');
export const recall = client.memories.recall({ q: 'x' });
export const memory = client.memories.get('id');
export const memoryDeleted = client.memories.delete('id');
export const chat = client.chat.list();
export const scripts = client.scripts.list();
export const webhooks = client.webhooks.list();
export const deliveries = client.webhooks.deliveries('id');
export const minds = client.minds.list();
export const computers = client.computers.list();
export const commands = client.computers.listCommands('id');
export const endpoints = client.system.endpoints();
export const login = client.accounts.login({ email: 'a@example.com', password: 'x' });
`;
const SHOWN: Record<string, string> = {
  tasksList: 'PagePromise<Task>',
  tasksPage: 'Page<Task>',
  firstTask: 'Task | undefined',
  task: 'Promise<Task>',
  deleted: 'Promise<DeletedTask>',
  recall: 'PagePromise<RecallHit>',
  memory: 'Promise<Memory>',
  memoryDeleted: 'Promise<void>',
  chat: 'PagePromise<ChatMessage>',
  scripts: 'PagePromise<Script>',
  webhooks: 'PagePromise<Webhook>',
  deliveries: 'PagePromise<Delivery>',
  minds: 'PagePromise<MindSummary>',
  computers: 'PagePromise<Computer>',
  commands: 'PagePromise<Command>',
  endpoints: 'PagePromise<EndpointInfo>',
  login: 'Promise<AuthResponse>',
};

/** Every module a file imports, re-exports or requires, read from its syntax tree. */
function importedModules(file: string): Set<string> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.add(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.add(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0] as ts.Node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        found.add((node.arguments[0] as ts.StringLiteral).text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the built SDK against its declarations', { timeout: 180_000 }, () => {
  let out: string;
  let declared: Map<string, boolean>;
  let program: ts.Program;

  before(async () => {
    // Inside sdk/node_modules, so the bundle finds the SDK's own dependencies, and only those.
    out = mkdtempSync(join(sdk, 'node_modules', '.exports-test-'));
    await run(process.execPath, [tsup, '--out-dir', out], { cwd: sdk, timeout: 150_000 });
    writeFileSync(join(out, 'probe.ts'), PROBE);
    program = ts.createProgram([join(out, 'index.d.ts'), join(out, 'index.d.cts'), join(out, 'probe.ts')], compilerOptions);
    declared = declaredExports(program, join(out, 'index.d.ts'));
  });
  after(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('the declarations type-check with strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess', () => {
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const text = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => out,
      getNewLine: () => '\n',
    });
    assert.equal(diagnostics.length, 0, text);
  });

  it('the .d.ts and the .d.cts declare the same exports, values and types alike', () => {
    assert.deepEqual([...declaredExports(program, join(out, 'index.d.cts'))].sort(), [...declared].sort());
    const values = [...declared].filter(([, value]) => value).map(([name]) => name);
    const types = [...declared].filter(([, value]) => !value).map(([name]) => name);
    for (const name of [
      'MindClient',
      'AgentClient',
      'Tasks',
      'Memories',
      'Page',
      'PagePromise',
      'NotFoundError',
      'verifyWebhookSignature',
    ]) {
      assert.ok(values.includes(name), `${name} is a value export`);
    }
    for (const name of ['Task', 'Memory', 'MindClientOptions', 'RequestOptions', 'ListTasksParams', 'NextPageParams']) {
      assert.ok(types.includes(name), `${name} is a type-only export`);
    }
  });

  for (const format of ['esm', 'cjs'] as const) {
    it(`the ${format} build exports exactly the values the declarations name`, async () => {
      const mod: Record<string, unknown> =
        format === 'esm'
          ? await import(pathToFileURL(join(out, 'index.js')).href)
          : createRequire(join(out, 'index.cjs'))(join(out, 'index.cjs'));
      const values = [...declared].filter(([, value]) => value).map(([name]) => name);
      const runtime = Object.keys(mod).filter((k) => k !== 'default' && k !== '__esModule');
      for (const name of values) assert.notEqual(mod[name], undefined, `${name} is declared as a value but is undefined at run time`);
      for (const name of runtime)
        assert.equal(declared.get(name), true, `${name} exists at run time but is not a value of the declarations`);
      assert.deepEqual([...runtime].sort(), [...values].sort());
      const client = new (mod.MindClient as new (o: object) => { tasks: unknown })({ baseUrl: 'http://127.0.0.1:1' });
      assert.ok(client.tasks instanceof (mod.Tasks as new () => unknown), 'client.tasks is a Tasks');
    });
  }

  it('an editor shows the answers by name: Task, Page<Task>, PagePromise<Task>, ...', () => {
    const checker = program.getTypeChecker();
    const probe = program.getSourceFile(join(out, 'probe.ts'));
    assert.ok(probe);
    const shown: Record<string, string> = {};
    for (const statement of probe.statements) {
      if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const d of statement.declarationList.declarations)
        shown[d.name.getText()] = checker.typeToString(checker.getTypeAtLocation(d.name));
    }
    assert.deepEqual(shown, SHOWN);
  });

  it('the bundle imports @ts-rest/core, zod and Node built-ins only; the declarations name zod and @ts-rest/core only', () => {
    for (const file of ['index.js', 'index.cjs']) {
      const modules = [...importedModules(join(out, file))];
      const packages = modules.filter((m) => !builtinModules.includes(m.replace(/^node:/, '')));
      assert.deepEqual(packages.sort(), ['@ts-rest/core', 'zod'], `${file} imports ${modules.join(', ')}`);
    }
    for (const file of ['index.d.ts', 'index.d.cts']) {
      assert.deepEqual([...importedModules(join(out, file))].sort(), ['@ts-rest/core', 'zod'], file);
    }
  });

  it('loading the bundle leaves zod as it found it: no .openapi() of its own, and the real zod-to-openapi still extends zod', async () => {
    await import(pathToFileURL(join(out, 'index.js')).href);
    const { z } = await import('zod'); // the SDK's zod, the one the bundle imports
    assert.equal(z.ZodType.prototype.openapi, undefined);
    const contractRequire = createRequire(resolve(sdk, '../contract/package.json'));
    const { extendZodWithOpenApi } = await import(pathToFileURL(contractRequire.resolve('@asteasolutions/zod-to-openapi')).href);
    extendZodWithOpenApi(z);
    const schema = z.string().openapi({ description: 'kept' });
    assert.equal(schema._def.openapi?.metadata?.description, 'kept');
  });
});
