// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {SiweTestAccount} from "./SiweTestAccount.sol";

/**
 * TESTS AND DEV CHAINS ONLY, NEVER PRODUCTION: the CREATE2 factory of SiweTestAccount. An
 * account's address follows from (this factory, owner, salt) before it exists, which is what an
 * ERC-6492 counterfactual signature needs: it wraps `deploy(owner, salt)` as the factory call a
 * verifier simulates before it asks the account's `isValidSignature`.
 */
contract SiweTestAccountFactory {
    /// Emitted when `deploy` creates an account (not when it was already deployed).
    event AccountDeployed(address indexed account, address indexed owner, bytes32 salt);

    /// Deploys the account of (owner, salt) and returns its address; returns the existing account
    /// when it is already deployed (idempotent, so an ERC-6492 factory call never reverts).
    function deploy(address owner, bytes32 salt) external returns (address account) {
        account = accountAddress(owner, salt);
        if (account.code.length > 0) return account;
        new SiweTestAccount{salt: salt}(owner);
        emit AccountDeployed(account, owner, salt);
    }

    /// The address the account of (owner, salt) has, deployed or not.
    function accountAddress(address owner, bytes32 salt) public view returns (address) {
        bytes memory initCode = abi.encodePacked(type(SiweTestAccount).creationCode, abi.encode(owner));
        return Create2.computeAddress(salt, keccak256(initCode));
    }
}
