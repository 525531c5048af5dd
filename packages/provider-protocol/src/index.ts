export { signBody, verifyBody } from './signature.ts';
