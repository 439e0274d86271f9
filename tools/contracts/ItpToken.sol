// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/**
 * The ERC-20 token that token-rpc's createToken deploys: OpenZeppelin 5's ERC20 with the number of
 * decimals chosen at deployment and the whole initial supply minted to the deployer (the wallet
 * address that sent createToken). No owner, no minting after deployment, no pausing.
 */
contract ItpToken is ERC20 {
    uint8 private immutable _tokenDecimals;

    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 initialSupply_
    ) ERC20(name_, symbol_) {
        _tokenDecimals = decimals_;
        _mint(msg.sender, initialSupply_);
    }

    function decimals() public view override returns (uint8) {
        return _tokenDecimals;
    }
}
