import { z } from 'zod';
import { resource } from './fields.ts';
import { timestamp, url } from './common.ts';

/**
 * A pending suggestion, as `/api/suggestions/` lists them (Weblate 2026: `SuggestionSerializer`,
 * read from 2026.10.1's source; the seeded server held none, so the shape is not yet measured).
 * The list holds what the client may see (`Suggestion.objects.filter_access`), newest first.
 */
export const suggestionFields = resource(
  'suggestion',
  {
    /** The unit it is for (`api/units/<id>/`). */
    unit: url,
    /** One element per plural form. */
    target: z.array(z.string()),
    /** Its author (`api/users/<username>/`), null when the user is gone. */
    user: url.nullable(),
    timestamp,
    votes: z.number().int(),
  },
  {
    id: z.number().int(),
  },
);

export const suggestion = suggestionFields.schema;

export type Suggestion = z.infer<typeof suggestion>;
