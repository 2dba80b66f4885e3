/**
 * The status page editor's forms ⇄ stored fields (docs/status-pages.md): settings (title, address, description, zone, who may read it), the logo
 * (an image, checked by its bytes) and the sections of components. Each refusal names its field, so the page shows it beside that field.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import argon2 from 'argon2';
import moment from 'moment-timezone';
import type { StatusLogo, StatusPageDoc, StatusSection, StatusVisibility } from '../../../shared/models/status-page.js';
import type { PageSettings } from '../../services/status-pages.js';
import { SLUG_RE } from '../../../shared/domain/status-page.js';
import { FieldError, fieldOf, ticked } from '../kit/forms.js';

/** Most characters of a title, a component's or section's name, and a description. */
export const MAX_TITLE = 100;
export const MAX_DESCRIPTION = 1000;
/** Largest logo, bytes. */
export const MAX_LOGO_BYTES = 256 * 1024;
/** Sections and components a page may have. */
export const MAX_SECTIONS = 20;
export const MAX_COMPONENTS = 100;
/** Shortest password of a protected page. */
const MIN_PASSWORD = 8;

/** The settings form as the page fills it. */
export interface SettingsValues {
  title: string;
  slug: string;
  description: string;
  tz: string;
  visibility: StatusVisibility;
  published: boolean;
  /** Typed anew; `""` keeps the stored one. */
  password: string;
}

/** The settings of a stored page, or of a new one (public, unpublished, UTC). */
export function settingsValuesOf(page: StatusPageDoc | null): SettingsValues {
  if (!page) return { title: '', slug: '', description: '', tz: 'UTC', visibility: 'public', published: false, password: '' };
  const { title, slug, description, tz, visibility, published } = page;
  return { title, slug, description, tz, visibility, published, password: '' };
}

/** The settings form as submitted. */
export function submittedSettings(req: Request): SettingsValues {
  const visibility = fieldOf(req, 'visibility');
  return {
    title: fieldOf(req, 'title').trim(),
    slug: fieldOf(req, 'slug').trim(),
    description: fieldOf(req, 'description').trim(),
    tz: fieldOf(req, 'tz').trim() || 'UTC',
    visibility: visibility === 'unlisted' || visibility === 'password' ? visibility : 'public',
    published: ticked(req, 'published'),
    password: fieldOf(req, 'password'),
  };
}

/**
 * The stored fields of the settings; a new password is hashed (argon2), none typed keeps the stored one.
 * @param hasPassword - Whether the page already has one.
 * @throws FieldError naming the first invalid field.
 */
export async function settingsOf(values: SettingsValues, hasPassword: boolean): Promise<PageSettings> {
  if (values.title === '') throw new FieldError('title', 'give the page a title');
  if (values.title.length > MAX_TITLE) throw new FieldError('title', `the title is longer than ${MAX_TITLE} characters`);
  if (!SLUG_RE.test(values.slug)) throw new FieldError('slug', 'the address takes 1 to 64 lower-case letters, digits and inner hyphens (e.g. acme-billing)');
  if (values.description.length > MAX_DESCRIPTION) throw new FieldError('description', `the description is longer than ${MAX_DESCRIPTION} characters`);
  if (!moment.tz.zone(values.tz)) throw new FieldError('tz', `${values.tz} is not a time zone (e.g. UTC, Europe/Riga)`);
  const { title, slug, description, tz, visibility, published } = values;
  const settings: PageSettings = { title, slug, description, tz, visibility, published };
  if (visibility !== 'password') return { ...settings, passwordHash: null };
  if (values.password === '' && hasPassword) return settings;
  if (values.password.length < MIN_PASSWORD) throw new FieldError('password', `a protected page needs a password of at least ${MIN_PASSWORD} characters`);
  return { ...settings, passwordHash: await argon2.hash(values.password) };
}

/** Media types told by an image's first bytes. */
const SIGNATURES: readonly [string, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1'))],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
];

/**
 * The logo of an uploaded file: PNG, JPEG, GIF or WebP by its bytes (what the browser claims is ignored), at most {@link MAX_LOGO_BYTES}.
 * @throws FieldError('logo') otherwise.
 */
export function logoOf(data: Buffer | undefined): StatusLogo {
  if (!data || data.length === 0) throw new FieldError('logo', 'choose an image file');
  if (data.length > MAX_LOGO_BYTES) throw new FieldError('logo', `the logo is larger than ${MAX_LOGO_BYTES / 1024} KB`);
  const type = SIGNATURES.find(([, matches]) => matches(data))?.[0];
  if (!type) throw new FieldError('logo', 'the logo must be a PNG, JPEG, GIF or WebP image');
  return { data, type, hash: createHash('sha1').update(data).digest('base64url').slice(0, 16) };
}

/** One component row of the sections form, as typed. */
export interface ComponentValues {
  checkId: string;
  name: string;
}

/** One section of the sections form, as typed. */
export interface SectionValues {
  name: string;
  components: ComponentValues[];
}

/**
 * The sections form as submitted: `section_<i>_name`, `section_<i>_check_<j>`, `section_<i>_name_<j>`; a row without a check, or ticked
 * `section_<i>_remove_<j>`, is left out, and so is a section left without a name or components.
 */
export function submittedSections(req: Request): SectionValues[] {
  const sections: SectionValues[] = [];
  for (let i = 0; i < MAX_SECTIONS + 1 && fieldOf(req, `section_${i}_present`) !== ''; i++) {
    const components: ComponentValues[] = [];
    for (let j = 0; j < MAX_COMPONENTS + 1 && fieldOf(req, `section_${i}_present_${j}`) !== ''; j++) {
      const checkId = fieldOf(req, `section_${i}_check_${j}`);
      if (checkId !== '' && !ticked(req, `section_${i}_remove_${j}`)) components.push({ checkId, name: fieldOf(req, `section_${i}_name_${j}`).trim() });
    }
    const name = fieldOf(req, `section_${i}_name`).trim();
    if (!ticked(req, `section_${i}_remove`) && (name !== '' || components.length > 0)) sections.push({ name, components });
  }
  return sections;
}

/**
 * The sections to store: every component's check is one of the project's, named for the public.
 * @param checkIds - The project's checks.
 * @throws FieldError naming the row (`section_<i>_name_<j>`) or section at fault.
 */
export function sectionsOf(values: readonly SectionValues[], checkIds: ReadonlySet<string>): StatusSection[] {
  if (values.length > MAX_SECTIONS) throw new FieldError('sections', `a page takes at most ${MAX_SECTIONS} sections`);
  if (values.reduce((n, s) => n + s.components.length, 0) > MAX_COMPONENTS) throw new FieldError('sections', `a page takes at most ${MAX_COMPONENTS} components`);
  values.forEach((section, i) => {
    if (section.name.length > MAX_TITLE) throw new FieldError(`section_${i}_name`, `the section's name is longer than ${MAX_TITLE} characters`);
    section.components.forEach((c, j) => {
      if (!checkIds.has(c.checkId)) throw new FieldError(`section_${i}_check_${j}`, 'this check is not in the project any more: choose another');
      if (c.name === '') throw new FieldError(`section_${i}_name_${j}`, 'give this component the name visitors will see');
      if (c.name.length > MAX_TITLE) throw new FieldError(`section_${i}_name_${j}`, `the name is longer than ${MAX_TITLE} characters`);
    });
  });
  return values.map((s) => ({ name: s.name, components: s.components.map(({ checkId, name }) => ({ checkId, name })) }));
}
