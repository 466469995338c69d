import { z } from 'zod';

// ── Calendar feed ───────────────────────────────────────────────────────────
export const CalendarLink = z.object({ url: z.string() });
export type CalendarLink = z.infer<typeof CalendarLink>;
/** A wrong token is 404, not 400: only its length is bounded here. */
export const CalendarParams = z.object({ token: z.string().max(200) });
