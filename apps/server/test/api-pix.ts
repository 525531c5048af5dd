import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/**
 * The BCB "API Pix" 2.9.0 OpenAPI document as a validator of captured traffic: requests we send,
 * responses we read, and the `{webhookUrl}/pix` callback body. OpenAPI 3.0 schemas are JSON Schema
 * enough for Ajv (non-strict: `example`, `x-*`, `readOnly` are annotations).
 *
 * Errata, applied to a copy of the document and listed so a reader sees exactly what we changed:
 * 1. Some patterns are written as JavaScript regex literals, slashes included (`"/^\\d{11}$/"`,
 *    `"/^\\d{7}$/"`). As ECMA-262 patterns (what JSON Schema says `pattern` is) they can never match
 *    (a `/` before `^`). Read as what they plainly mean: the text between the slashes.
 * 2. `PixConsultados` (the answer of `GET /pix`) requires `cobs`, a property it does not define (a
 *    slip from the charge lists); its list is `pix`. We drop `cobs` from `required`.
 * 3. `location` is declared `format: uri` while the document's own example (and the BR Code, whose
 *    field 25 carries it) has no scheme: `pix.example.com/qr/v2/…`. A `format: uri` whose own
 *    example is scheme-less is read as `uri-reference`.
 */
export const API_PIX_DOCUMENT = '/work/shared/reference/bacen-api-pix-2.9.0.openapi.yaml';
const ID = 'api-pix';

type Json = Record<string, unknown>;
export interface Errata {
  regexLiterals: string[];
  requiredFixes: string[];
  uriReferences: string[];
}

function applyErrata(node: unknown, path: string, errata: Errata): void {
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries()) applyErrata(child, `${path}/${index}`, errata);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const object = node as Json;
  const pattern = object.pattern;
  if (typeof pattern === 'string' && /^\/.*\/$/.test(pattern) && pattern.length > 2) {
    object.pattern = pattern.slice(1, -1);
    errata.regexLiterals.push(path);
  }
  if (
    object.format === 'uri' &&
    typeof object.example === 'string' &&
    !/^[a-z][a-z0-9+.-]*:/i.test(object.example)
  ) {
    object.format = 'uri-reference';
    errata.uriReferences.push(path);
  }
  for (const [key, child] of Object.entries(object)) applyErrata(child, `${path}/${key}`, errata);
}

export interface Violation {
  where: string;
  errors: string[];
}

export class ApiPixValidator {
  readonly doc: Json;
  readonly errata: Errata = { regexLiterals: [], requiredFixes: [], uriReferences: [] };
  private readonly ajv: Ajv;

  constructor(file = API_PIX_DOCUMENT) {
    this.doc = parse(readFileSync(file, 'utf8')) as Json;
    applyErrata(this.doc, '#', this.errata);
    const schemas = (this.doc.components as Json).schemas as Record<string, Json>;
    const consulted = schemas.PixConsultados!;
    consulted.required = (consulted.required as string[]).filter((name) => name !== 'cobs');
    this.errata.requiredFixes.push('#/components/schemas/PixConsultados/required: cobs');
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(this.ajv);
    this.ajv.addSchema(this.doc, ID);
  }

  /** The scopes the document's OAuth2 scheme names. */
  scopes(): string[] {
    const scheme = ((this.doc.components as Json).securitySchemes as Json).OAuth2 as {
      flows: { clientCredentials: { scopes: Record<string, string> } };
    };
    return Object.keys(scheme.flows.clientCredentials.scopes);
  }

  /** The operation of a path template (`/cob/{txid}`) and method, or undefined outside the standard. */
  operation(path: string, method: string): Json | undefined {
    const item = (this.doc.paths as Record<string, Json>)[path];
    return item?.[method.toLowerCase()] as Json | undefined;
  }

  /** Errors of `value` against the schema at a JSON pointer in the document (`#/components/...`). */
  check(pointer: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(`${ID}${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate(value) ? [] : (validate.errors ?? []).map(describe);
  }

  private resolve(node: Json): Json {
    let current = node;
    while (typeof current.$ref === 'string') {
      const pointer = (current.$ref as string).slice(2).split('/');
      current = pointer.reduce<Json>((at, key) => at[key] as Json, this.doc);
    }
    return current;
  }

  /** The JSON pointer of a request body's schema, or null when the operation takes none. */
  requestSchema(path: string, method: string): string | null {
    const op = this.operation(path, method);
    if (!op?.requestBody) return null;
    const ref = (op.requestBody as Json).$ref as string | undefined;
    const base = ref ? ref.slice(1) : `/paths/${pointerOf(path)}/${method.toLowerCase()}/requestBody`;
    return `#${base}/content/application~1json/schema`;
  }

  /** The JSON pointer of a response's schema; undefined when the status is not documented. */
  responseSchema(path: string, method: string, status: number): string | null | undefined {
    const op = this.operation(path, method);
    const responses = op?.responses as Json | undefined;
    const response = responses?.[String(status)] as Json | undefined;
    if (!response) return undefined;
    const ref = response.$ref as string | undefined;
    const resolved = this.resolve(response);
    const content = resolved.content as Json | undefined;
    if (!content) return null;
    const type = Object.keys(content)[0]!;
    const base = ref ? ref.slice(1) : `/paths/${pointerOf(path)}/${method.toLowerCase()}/responses/${status}`;
    return `#${base}/content/${type.replace('/', '~1')}/schema`;
  }

  /** The parameters of an operation (path level first), each with the pointer of its schema. */
  parameters(path: string, method: string): { param: Json; schema: string }[] {
    const item = (this.doc.paths as Record<string, Json>)[path] ?? {};
    const lists: [Json[] | undefined, string][] = [
      [item.parameters as Json[] | undefined, `/paths/${pointerOf(path)}/parameters`],
      [
        this.operation(path, method)?.parameters as Json[] | undefined,
        `/paths/${pointerOf(path)}/${method.toLowerCase()}/parameters`,
      ],
    ];
    return lists.flatMap(([list, base]) =>
      (list ?? []).map((param, index) => {
        const ref = param.$ref as string | undefined;
        return { param: this.resolve(param), schema: `#${ref ? ref.slice(1) : `${base}/${index}`}/schema` };
      }),
    );
  }

  /** Errors of a query string against the operation's query parameters (numbers read as numbers). */
  checkQuery(path: string, method: string, query: URLSearchParams): string[] {
    const errors: string[] = [];
    const params = this.parameters(path, method).filter(({ param }) => param.in === 'query');
    for (const name of query.keys())
      if (!params.some(({ param }) => param.name === name)) errors.push(`query ${name}: not a parameter`);
    for (const { param, schema } of params) {
      const raw = query.get(param.name as string);
      if (raw === null) {
        if (param.required) errors.push(`query ${param.name}: required`);
        continue;
      }
      const type = this.resolve(param.schema as Json).type;
      const value =
        type === 'integer' || type === 'number' ? Number(raw) : type === 'boolean' ? raw === 'true' : raw;
      errors.push(...this.check(schema, value).map((e) => `query ${param.name}: ${e}`));
    }
    return errors;
  }

  /** Errors of path parameter values (`{ txid: '...' }`) against their schemas. */
  checkPath(path: string, method: string, values: Record<string, string>): string[] {
    return this.parameters(path, method)
      .filter(({ param }) => param.in === 'path')
      .flatMap(({ param, schema }) =>
        this.check(schema, values[param.name as string]).map((e) => `path ${param.name}: ${e}`),
      );
  }
}

function pointerOf(path: string): string {
  return path.replaceAll('~', '~0').replaceAll('/', '~1');
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`;
}
