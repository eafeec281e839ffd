export * from './schemas.ts';
export * from './errors.ts';
export * from './api.ts';
