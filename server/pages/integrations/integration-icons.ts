/**
 * The integrations page's kind names and pictures: the pictures are the app's one set (server/pages/kit/kind-icons.ts),
 * each labelled with the kind's name as people read it, so a reader never depends on the shape.
 */
import { kindIconSvg } from '../kit/kind-icons.js';
import { formKindOf, KIND_FORMS } from './channel-kinds.js';

/** The kind's name as people read it ("Microsoft Teams"); the stored kind itself when the form does not know it. */
export function kindLabel(kind: string): string {
  const form = formKindOf(kind);
  return form ? KIND_FORMS[form].label : kind;
}

/** The kind's picture (server/pages/kit/kind-icons.ts) labelled with the kind's name. */
export function kindIcon(kind: string): string {
  return kindIconSvg(kind, kindLabel(kind));
}
