/** Reading urlencoded form fields (a missing or repeated field reads as `""`, never an array or an object) and a refused field's error. */
import type { Request } from 'express';

/** The field's text, or `""` when absent or not a single string. */
export function fieldOf(req: Request, name: string): string {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
}

/** Whether a checkbox was ticked (sent at all). */
export function ticked(req: Request, name: string): boolean {
  return fieldOf(req, name) !== '';
}

/** A field sent any number of times (checkboxes of one name): its text values, `[]` when absent. */
export function listOf(req: Request, name: string): string[] {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A local path to go to after signing in or confirming; anything else (another origin, `//host`) becomes the project list. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/projects/';
}

/** A refused form: the field it is about and the API's message. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'FieldError';
  }
}
