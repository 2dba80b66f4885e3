/**
 * Checks real requests and responses against the served OpenAPI description:
 * the status must be documented for the operation, the content type must be
 * one it lists (an undocumented body must be empty), and a JSON body must
 * validate against its schema (Ajv, JSON Schema 2020-12, with formats).
 */
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type supertest from 'supertest';

type Doc = { paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, Response> } };
type Operation = { responses: Record<string, Response | { $ref: string }>; requestBody?: { content: Record<string, unknown> } };
type Response = { content?: Record<string, unknown> };

// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'https://hc-monitor.invalid/openapi.json';

/** `~` and `/` escaped for a JSON pointer. */
const pointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** A validator bound to one description. */
export class ApiValidator {
  private readonly ajv: Ajv2020;
  /** Operations seen answering 2xx, as `METHOD template`. */
  readonly exercised = new Set<string>();

  constructor(readonly doc: Doc) {
    // strict off: the description's own members (openapi, paths, …) are not JSON Schema keywords.
    this.ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  /** Every documented operation, as `METHOD template`. */
  operations(): string[] {
    return Object.entries(this.doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
  }

  private operation(method: string, template: string): Operation {
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    expect(operation, `${method} ${template} is documented`).to.not.equal(undefined);
    return operation;
  }

  private validate(schemaPointer: string, value: unknown, what: string): void {
    const validate = this.ajv.getSchema(`${DOC_ID}#${schemaPointer}`);
    expect(validate, `schema at ${schemaPointer}`).to.not.equal(undefined);
    expect(validate!(value), `${what}: ${JSON.stringify(validate!.errors)}`).to.equal(true);
  }

  /**
   * Asserts that a request body fits the operation's request body schema.
   *
   * @param template - The documented path, e.g. `/checks/{code}`.
   */
  request(method: string, template: string, body: unknown): void {
    expect(this.operation(method, template).requestBody, `${method} ${template} takes a body`).to.not.equal(undefined);
    this.validate(`/paths/${pointer(template)}/${method.toLowerCase()}/requestBody/content/application~1json/schema`, body, 'request body');
  }

  /**
   * Asserts that `res` is a documented response of the operation.
   *
   * @param template - The documented path, e.g. `/checks/{code}`.
   */
  response(method: string, template: string, res: supertest.Response): void {
    const status = String(res.status);
    const declared = this.operation(method, template).responses[status];
    expect(declared, `${method} ${template} documents ${status}`).to.not.equal(undefined);
    const base = '$ref' in declared
      ? `/components/responses/${declared.$ref.split('/').pop()}`
      : `/paths/${pointer(template)}/${method.toLowerCase()}/responses/${status}`;
    const spec = '$ref' in declared ? this.doc.components.responses[declared.$ref.split('/').pop()!] : declared;
    if (res.status < 300) this.exercised.add(`${method.toUpperCase()} ${template}`);
    if (!spec.content) {
      expect(res.text ?? '', `${method} ${template} ${status} has no body`).to.equal('');
      return;
    }
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    expect(Object.keys(spec.content), `${method} ${template} ${status} content type`).to.include(type);
    if (type === 'application/json') this.validate(`${base}/content/application~1json/schema`, res.body, `${method} ${template} ${status}`);
  }
}
