export * from './codes.js';
export * from './issues.js';
export * from './messages.js';
