export * from './auth.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './languages.ts';
export * from './money.ts';
export * from './site.ts';
export * from './user.ts';
export * from './validation.ts';
