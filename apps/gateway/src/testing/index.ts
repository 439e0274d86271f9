/**
 * `@itp/gateway/testing`: the gateway's test kit for other projects (tools' specs): the real app,
 * built in process on an ephemeral port.
 */
export { startGateway, type RunningGateway } from './start-gateway.js';
