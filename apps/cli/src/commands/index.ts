/** Every command of itp (the operator groups are delegated, see run-cli.ts). */
import { accountCommand, accountRevokeSiteCommand, logoutCommand } from './account.js';
import { addressLinkCommand, addressUnlinkCommand } from './address.js';
import { blockGetCommand } from './block.js';
import type { Command } from './command.js';
import {
  vcIssueCommand,
  vcOfferCommand,
  vcRevokeCommand,
  vcVerifyCommand,
  vpCreateCommand,
  vpVerifyCommand,
} from './credentials.js';
import { didCreateCommand, didIssuersCommand, didVerifiersCommand } from './did.js';
import { loginAppCommand } from './login-app.js';
import { loginApproveCommand } from './login-approve.js';
import { loginSiweCommand } from './login-siwe.js';
import { loginCommand } from './login.js';
import { txStatusCommand, walletTransferCommand } from './transactions.js';
import { walletBalanceCommand, walletCreateCommand, walletKeyCommand } from './wallet.js';

export const COMMANDS: readonly Command[] = [
  loginCommand,
  loginAppCommand,
  loginApproveCommand,
  loginSiweCommand,
  logoutCommand,
  accountCommand,
  accountRevokeSiteCommand,
  addressLinkCommand,
  addressUnlinkCommand,
  walletCreateCommand,
  walletKeyCommand,
  walletBalanceCommand,
  walletTransferCommand,
  txStatusCommand,
  didCreateCommand,
  didIssuersCommand,
  didVerifiersCommand,
  vcIssueCommand,
  vcOfferCommand,
  vcVerifyCommand,
  vcRevokeCommand,
  vpCreateCommand,
  vpVerifyCommand,
  blockGetCommand,
];
