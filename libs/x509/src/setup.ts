/**
 * `@peculiar/x509` resolves its services through tsyringe, which needs `reflect-metadata` loaded
 * before it, and it signs and verifies through the WebCrypto provider set here (Node's). Every
 * module of this lib that uses `@peculiar/x509` imports this one first; ES modules run it once.
 */
import 'reflect-metadata';
import { cryptoProvider } from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

cryptoProvider.set(webcrypto);
