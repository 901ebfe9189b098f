import { gatusImporter } from './gatus.ts';
import type { TextImporter } from './importer.ts';
import { kumaImporter } from './kuma-convert.ts';

/** The importers that convert an uploaded text (the console's Import, POST /v1/config/convert), by source. */
export const TEXT_IMPORTERS: Record<string, TextImporter> = {
  kuma: kumaImporter,
  gatus: gatusImporter,
};
