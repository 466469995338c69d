/** What main.ts needs once the database is open: loaded beside it, not before it (main.ts says why). */
export { scheduleReminders } from './jobs/reminders.js';
export { scheduleEcbRates } from './modules/fx/fx.job.js';
export { FxRepo } from './modules/fx/fx.repo.js';
export { FxService } from './modules/fx/fx.service.js';
export { UsersRepo } from './modules/users/users.repo.js';
