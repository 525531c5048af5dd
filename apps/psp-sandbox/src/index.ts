export { buildDynamicBrCode, buildStaticBrCode, crc16, isValidBrCode } from '@sorte/pix-br-code';
export { DEMO_PAYER_CPF } from './pages.ts';
export {
  API_BASE_PATH,
  createSandbox,
  DEFAULT_PIX_KEY,
  type Exchange,
  type Sandbox,
  type SandboxOptions,
} from './sandbox.ts';
export { SIGNATURE_HEADER, signWebhook } from './signature.ts';
export type { CobStatus, PayoutMode, PayoutStatus, PixKeyType } from './state.ts';
export { createTestPki, type TestPki } from './test-pki.ts';
