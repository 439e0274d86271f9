export { anvilBinaryPath, startAnvil, type AnvilOptions, type RunningAnvil } from './anvil.js';
