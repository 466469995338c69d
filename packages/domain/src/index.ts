export * from './auth.js';
export * from './common.js';
export * from './enums.js';
export * from './errors.js';
export * from './fuel.js';
export * from './records.js';
export * from './user.js';
export * from './vehicle.js';
