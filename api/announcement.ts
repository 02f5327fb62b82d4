import { z } from 'zod';
import { resource } from './fields.ts';

/** Weblate's announcement severities (weblate/trans/models/announcement.py); a newer server may send others. */
export const announcementSeverities = ['info', 'warning', 'danger', 'success'] as const;

/**
 * An announcement, as the `announcements/` lists of a project, component, translation or category
 * send them (Weblate 2026: `AnnouncementSerializer`, read from 2026.10.1's source; the seeded
 * server held none, so the shape is not yet measured). `message` is Markdown that may mention
 * users: untrusted text, never HTML. `expiry` is a date (`2026-12-31`), after which Weblate stops
 * showing it; the lists send expired ones too.
 */
export const announcementFields = resource(
  'announcement',
  {
    message: z.string(),
    /** `info`, `warning`, `danger`, `success`: any string, so that a new severity is not a problem. */
    severity: z.string(),
    expiry: z.string().nullable(),
  },
  {
    id: z.number().int(),
    notify: z.boolean(),
  },
);

export const announcement = announcementFields.schema;

export type Announcement = z.infer<typeof announcement>;
