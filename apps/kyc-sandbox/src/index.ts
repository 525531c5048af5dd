export {
  createKycSandbox,
  type KycSandbox,
  type KycSandboxOptions,
  type TCpfOutcome,
  type TSandboxDecision,
} from './sandbox.ts';
export { KYC_SIGNATURE_HEADER, signKycWebhook } from './signature.ts';
