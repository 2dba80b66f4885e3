/**
 * A public status page of a project (docs/status-pages.md): chosen checks, each under a public name, in sections, served without sign-in at
 * `/status/<slug>/` once published. Edited by owners and read-write members (server/pages/status-pages/status-pages.ts); read by server/status/.
 */
import mongoose, { Schema } from 'mongoose';

/** Who may open a published page: anyone (and listed at `/status/`), anyone with its link, or whoever knows its password. */
export type StatusVisibility = 'public' | 'unlisted' | 'password';

/** One check on a page, under the name visitors see (never the check's own name). */
export interface StatusComponent {
  checkId: string;
  name: string;
}

/** A titled group of components. */
export interface StatusSection {
  name: string;
  components: StatusComponent[];
}

/** An uploaded logo: the image bytes, their media type and a hash for its ETag. */
export interface StatusLogo {
  data: Buffer;
  type: string;
  hash: string;
}

/** The logo's bytes as a Buffer: a lean read gives the driver's BSON Binary, whose `buffer` holds them. */
export function logoBytes(logo: StatusLogo): Buffer {
  const data: unknown = logo.data;
  return Buffer.isBuffer(data) ? data : Buffer.from((data as { buffer: Uint8Array }).buffer);
}

/** A status page as stored. */
export interface StatusPageDoc {
  /** The page's UUID. */
  _id: string;
  projectId: string;
  /** Its address, `/status/<slug>/`: unique in the installation. */
  slug: string;
  title: string;
  description: string;
  /** IANA zone the page's days (the 90-day bars) are counted in. */
  tz: string;
  published: boolean;
  visibility: StatusVisibility;
  /** argon2 hash of the page's password; null unless `visibility` is `password`. */
  passwordHash: string | null;
  sections: StatusSection[];
  logo: StatusLogo | null;
  /** Counts edits: part of the cached page's ETag. */
  rev: number;
  created: Date;
  updated: Date;
}

const componentSchema = new Schema<StatusComponent>({ checkId: { type: String, required: true }, name: { type: String, required: true } }, { _id: false });
const sectionSchema = new Schema<StatusSection>({ name: { type: String, default: '' }, components: { type: [componentSchema], default: [] } }, { _id: false });

const statusPageSchema = new Schema<StatusPageDoc>(
  {
    _id: { type: String, required: true },
    projectId: { type: String, required: true },
    slug: { type: String, required: true },
    title: { type: String, required: true },
    description: { type: String, default: '' },
    tz: { type: String, default: 'UTC' },
    published: { type: Boolean, default: false },
    visibility: { type: String, default: 'public' },
    passwordHash: { type: String, default: null },
    sections: { type: [sectionSchema], default: [] },
    logo: { type: new Schema<StatusLogo>({ data: Buffer, type: String, hash: String }, { _id: false }), default: null },
    rev: { type: Number, default: 0 },
    created: { type: Date, required: true },
    updated: { type: Date, required: true },
  },
  { versionKey: false },
);
statusPageSchema.index({ slug: 1 }, { unique: true });
statusPageSchema.index({ projectId: 1, created: 1 });

/** The `statuspages` collection. */
export const StatusPage = mongoose.model<StatusPageDoc>('StatusPage', statusPageSchema);
