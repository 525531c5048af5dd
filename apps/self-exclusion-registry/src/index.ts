export {
  createRegistry,
  isValidCpf,
  type Registry,
  type RegistryOptions,
  type RegistryStatus,
} from './registry.ts';
