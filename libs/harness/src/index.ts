export {
  postgresUser,
  sleep,
  stopChild,
  tcpOpen,
  waitForPostgresQueries,
  waitUntil,
} from './processes.js';
