// What a bundle may import from outside itself, as the Lambda runtime lets it (docs/architecture.md, "Bundle mode"):
// Node's built-ins, and the AWS SDK for JavaScript v3 that the nodejs24.x runtime provides and that the bundling
// leaves out (`externalModules` in infra/lambda.ts). Locally the SDK is the project's installed copy, resolved from the
// project whatever folder the bundles are in; any other package a bundle imports is not found, as on AWS, instead of
// being picked up from a node_modules that happens to sit above the cdk.out folder.
import { builtinModules, registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The bundling's external modules, as esbuild patterns (infra/lambda.ts gives these to every function). */
export const RUNTIME_PROVIDED_MODULES: readonly string[] = ['@aws-sdk/*'];

/** Where the runtime's modules are resolved from: the project's package.json, so its node_modules. */
const PROJECT_PACKAGE = pathToFileURL(join(import.meta.dirname, '..', '..', 'package.json')).href;
const BUILTINS = new Set(builtinModules);

const matches = (specifier: string, pattern: string) => (pattern.endsWith('/*') ? specifier.startsWith(pattern.slice(0, -1)) : specifier === pattern);

/** Whether the runtime provides `specifier` (`@aws-sdk/client-sqs`, or a file inside such a package). Pure. */
export const runtimeProvides = (specifier: string): boolean => RUNTIME_PROVIDED_MODULES.some((pattern) => matches(specifier, pattern));

/** A package name (not a relative or absolute path, a URL, or a `#` import) that is no Node built-in. Pure. */
export function isPackageSpecifier(specifier: string): boolean {
  if (/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:|#)/i.test(specifier)) return false;
  return !BUILTINS.has(specifier.split('/')[0]!) && !BUILTINS.has(specifier);
}

/** The error Node gives for a package it cannot find, with the code the import or `require` expects. */
function notFound(specifier: string, parentUrl: string, required: boolean): Error {
  const error = new Error(`Cannot find package '${specifier}' imported from ${parentUrl}: the bundle does not include it and the Lambda runtime does not provide it`);
  Object.assign(error, { code: required ? 'MODULE_NOT_FOUND' : 'ERR_MODULE_NOT_FOUND' });
  return error;
}

let installed = false;

/**
 * Resolves every import made from inside the bundles of these files as the Lambda runtime does: the runtime's
 * modules from the project, built-ins and the bundle's own files as usual, any other package not at all. Once per
 * thread (a function thread, lib/local/function-thread.ts), before the first bundle is imported.
 */
export function resolveAsLambdaRuntime(bundleFiles: readonly string[]): void {
  if (installed) return;
  installed = true;
  const roots = [...new Set(bundleFiles.map((file) => pathToFileURL(dirname(file)).href + '/'))];
  const fromBundle = (parentUrl: string | undefined) => parentUrl !== undefined && roots.some((root) => parentUrl.startsWith(root));
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!fromBundle(context.parentURL) || !isPackageSpecifier(specifier)) return nextResolve(specifier, context);
      if (runtimeProvides(specifier)) return nextResolve(specifier, { ...context, parentURL: PROJECT_PACKAGE });
      throw notFound(specifier, context.parentURL!, context.conditions.includes('require'));
    },
  });
}
