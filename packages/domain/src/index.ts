export * from './auth.js';
export * from './enums.js';
export * from './errors.js';
export * from './user.js';
