export {
  CHAIN_UNAVAILABLE,
  summarizeServiceErrors,
  type RestErrorDoc,
  type ServiceErrorDoc,
} from './service-errors.js';
