// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/**
 * TESTS AND DEV CHAINS ONLY, NEVER PRODUCTION: the smallest smart-contract account that Sign-In
 * with Ethereum (EIP-4361) tests sign in with. It cannot hold or move anything; it only answers
 * ERC-1271 `isValidSignature`: an ECDSA signature by its one owner (an EOA) over the given hash is
 * valid, anything else (another signer, a malformed signature) is not. The test kit
 * libs/testing/src/smart-account.ts deploys it through SiweTestAccountFactory (ERC-1271) or
 * leaves it counterfactual (ERC-6492).
 */
contract SiweTestAccount {
    /// ERC-1271 magic value: `bytes4(keccak256("isValidSignature(bytes32,bytes)"))`.
    bytes4 internal constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    /// What this account answers for a signature it does not accept.
    bytes4 internal constant ERC1271_INVALID = 0xffffffff;

    /// The EOA whose signatures this account accepts.
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// ERC-1271: the magic value when `signature` is the owner's ECDSA signature of `hash`.
    /// Uses tryRecover: a malformed signature answers 0xffffffff instead of reverting.
    function isValidSignature(bytes32 hash, bytes memory signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError error_, ) = ECDSA.tryRecover(hash, signature);
        if (error_ == ECDSA.RecoverError.NoError && signer == owner) return ERC1271_MAGIC_VALUE;
        return ERC1271_INVALID;
    }
}
