import { useState } from 'react';

/**
 * A slug derived from a name, as the API's slug rule allows (lib/domain/formats/slug.ts): lower-case
 * ASCII letters, digits and hyphens, starting with a letter or digit, at most 63 characters.
 */

/** The longest slug the API takes. */
export const SLUG_MAX = 63;

/** Letters NFKD does not take apart into an ASCII letter and a mark. */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** "Payments API (EU)" → "payments-api-eu"; "Zürich Café" → "zurich-cafe". */
export function slugOf(name: string, max = SLUG_MAX): string {
  return name
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => FOLDS[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, max)
    .replace(/-+$/, '');
}

/**
 * A name and its slug for a create form: the slug follows the name until the user edits the slug
 * field; from then on it is what they typed (even empty: the API then asks for one).
 */
export function useNameAndSlug(initialName = '') {
  const [name, setName] = useState(initialName);
  const [typed, setTyped] = useState<string | undefined>(undefined);
  return {
    name,
    slug: typed ?? slugOf(name),
    setName,
    setSlug: setTyped,
    reset: () => {
      setName('');
      setTyped(undefined);
    },
  };
}
