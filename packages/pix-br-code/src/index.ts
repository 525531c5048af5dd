export {
  type BrCodeFields,
  buildDynamicBrCode,
  buildStaticBrCode,
  crc16,
  type DynamicBrCode,
  isValidBrCode,
  MAX_PAYLOAD_LENGTH,
  parseTlv,
  type StaticBrCode,
  toBrCodeText,
} from './br-code.ts';
