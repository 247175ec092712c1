// Reads a synthesized CDK app (cdk.out): the stack's CloudFormation template and its nested stacks' templates, every
// resource with its properties, and the intrinsic functions that join them (Ref, Fn::GetAtt, Fn::Join, nested stack
// parameters and outputs) resolved to the resources they name. Pure reading: what each resource means locally is
// lib/local/bundles.ts's business. docs/architecture.md, "Bundle mode".
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type RawResource = { Type: string; Properties?: Record<string, Json>; Metadata?: Record<string, Json> };
type RawTemplate = { Resources?: Record<string, RawResource>; Parameters?: Record<string, Json>; Outputs?: Record<string, { Value: Json }> };

/** A template value with its intrinsic functions resolved: references point at resources (or pseudo parameters). */
export type Resolved =
  | string
  | number
  | boolean
  | null
  | Resolved[]
  | { ref: TemplateResource; attribute?: string }
  | { pseudo: string }
  | { join: string; parts: Resolved[] }
  /** An intrinsic function the local runtime does not read (Fn::Sub in an IAM policy): an error only where it is needed. */
  | { unsupported: string }
  | { [key: string]: Resolved };

export interface TemplateResource {
  /** The logical id, prefixed with its nested stacks' ids (`Routes/ApiRouteX`). */
  id: string;
  type: string;
  /** The properties, resolved. */
  properties: Record<string, Resolved>;
  metadata: Record<string, Json>;
}

export interface SynthesizedStack {
  /** The cdk.out folder. */
  directory: string;
  stackName: string;
  resources: TemplateResource[];
}

/** The cdk.out folder holds no synthesized stack, or not the one asked for. */
export class NoSynthesizedStackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoSynthesizedStackError';
  }
}

interface Scope {
  prefix: string;
  template: RawTemplate;
  parameters: Record<string, Resolved>;
  resources: Map<string, TemplateResource>;
}

const isObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The stack's template file from cdk.out's manifest: the one stack, or the one named. */
function templateFileOf(directory: string, stackName: string | undefined): { file: string; name: string } {
  const manifestFile = join(directory, 'manifest.json');
  if (!existsSync(manifestFile)) throw new NoSynthesizedStackError(`${directory} holds no synthesized app: run \`npm run synth\` first`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { artifacts?: Record<string, { type: string; properties?: { templateFile?: string } }> };
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, a]) => a.type === 'aws:cloudformation:stack' && a.properties?.templateFile);
  const chosen = stackName ? stacks.filter(([name]) => name === stackName) : stacks;
  if (chosen.length !== 1) {
    const names = stacks.map(([name]) => name).join(', ') || 'none';
    throw new NoSynthesizedStackError(`${directory} must hold ${stackName ? `the stack ${stackName}` : 'exactly one stack'} (it holds: ${names})`);
  }
  const [name, artifact] = chosen[0]!;
  return { file: join(directory, artifact.properties!.templateFile!), name };
}

function resolveIn(scope: Scope, value: Json, all: Map<string, Scope>): Resolved {
  if (Array.isArray(value)) return value.map((v) => resolveIn(scope, v, all));
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const [key] = keys as [string];
    const argument = value[key]!;
    if (key === 'Ref') {
      const name = String(argument);
      if (name.startsWith('AWS::')) return { pseudo: name };
      if (name in scope.parameters) return scope.parameters[name]!;
      return { ref: resourceIn(scope, name) };
    }
    if (key === 'Fn::GetAtt') {
      const [name, attribute] = Array.isArray(argument) ? argument.map(String) : String(argument).split(/\.(.*)/s);
      const nested = all.get(`${scope.prefix}${name}`);
      if (nested && attribute!.startsWith('Outputs.')) {
        const output = nested.template.Outputs?.[attribute!.slice('Outputs.'.length)];
        if (!output) throw new Error(`The nested stack ${name} has no output ${attribute}`);
        return resolveIn(nested, output.Value, all);
      }
      return { ref: resourceIn(scope, name!), attribute: attribute! };
    }
    if (key === 'Fn::Join') {
      const [separator, parts] = argument as [string, Json[]];
      return { join: separator, parts: parts.map((p) => resolveIn(scope, p, all)) };
    }
    if (key.startsWith('Fn::')) return { unsupported: key };
  }
  return Object.fromEntries(keys.map((k) => [k, resolveIn(scope, value[k]!, all)]));
}

function resourceIn(scope: Scope, logicalId: string): TemplateResource {
  const found = scope.resources.get(logicalId);
  if (!found) throw new Error(`The template names ${scope.prefix}${logicalId}, which it does not define`);
  return found;
}

/**
 * Reads the synthesized stack in `directory` (cdk.out) with its nested stacks. Resources are made first, then each
 * one's properties resolved, so a reference may point forward.
 */
export function readSynthesizedStack(directory: string, stackName?: string): SynthesizedStack {
  const { file, name } = templateFileOf(directory, stackName);
  const scopes = new Map<string, Scope>();
  const resources: TemplateResource[] = [];
  const load = (templateFile: string, prefix: string, parameters: Record<string, Resolved>): Scope => {
    const template = JSON.parse(readFileSync(templateFile, 'utf8')) as RawTemplate;
    const scope: Scope = { prefix, template, parameters, resources: new Map() };
    for (const [logicalId, raw] of Object.entries(template.Resources ?? {})) {
      const resource: TemplateResource = { id: `${prefix}${logicalId}`, type: raw.Type, properties: {}, metadata: raw.Metadata ?? {} };
      scope.resources.set(logicalId, resource);
      resources.push(resource);
    }
    for (const [logicalId, raw] of Object.entries(template.Resources ?? {})) {
      const resource = scope.resources.get(logicalId)!;
      if (raw.Type === 'AWS::CloudFormation::Stack') {
        // A nested stack's template is an asset of cdk.out; its parameters are this scope's values.
        const nestedFile = resource.metadata['aws:asset:path'];
        if (typeof nestedFile !== 'string') throw new Error(`The nested stack ${resource.id} names no template file in cdk.out`);
        const given = (raw.Properties?.Parameters ?? {}) as Record<string, Json>;
        const nestedParameters = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, resolveIn(scope, v, scopes)]));
        scopes.set(resource.id, load(join(directory, nestedFile), `${resource.id}/`, nestedParameters));
      }
    }
    for (const [logicalId, raw] of Object.entries(template.Resources ?? {})) {
      if (raw.Type === 'AWS::CloudFormation::Stack') continue;
      scope.resources.get(logicalId)!.properties = resolveIn(scope, raw.Properties ?? {}, scopes) as Record<string, Resolved>;
    }
    return scope;
  };
  scopes.set('', load(file, '', {}));
  return { directory, stackName: name, resources };
}

/** The resource a value refers to (a Ref or a GetAtt), if it is one. */
export function referenced(value: Resolved | undefined): { ref: TemplateResource; attribute?: string } | undefined {
  return isObject(value) && 'ref' in value ? (value as unknown as { ref: TemplateResource; attribute?: string }) : undefined;
}
