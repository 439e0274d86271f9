export { PresentationRefusedError } from './errors.js';
