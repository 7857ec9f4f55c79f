// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// A compact Compound-style money market in one contract. Per market: suppliers hold shares of
/// `cash + totalBorrows - totalReserves`; borrowers hold a principal and the `borrowIndex` it was
/// last updated at, so debt = principal * borrowIndex / snapshotIndex (Compound's accounting).
/// Interest accrues per second at a borrow rate linear in utilisation; `reserveFactor` of it goes
/// to reserves and the rest to suppliers. Every supplied market is collateral, valued at the
/// owner's fixed price table times its collateral factor. All amounts are exact integers, rounded
/// down except the shares burnt for a withdrawal, which round up.
contract DefiLendingPool is Ownable {
    using SafeERC20 for IERC20;

    uint256 private constant WAD = 1e18;

    struct MarketConfig {
        bool listed;
        uint8 decimals;
        /// Share of the supplied value that may be borrowed against (WAD).
        uint256 collateralFactor;
        /// Share of the interest kept as reserves (WAD).
        uint256 reserveFactor;
        /// Borrow rate per second at zero utilisation (WAD).
        uint256 baseRatePerSecond;
        /// Borrow rate per second added at 100% utilisation (WAD).
        uint256 slopePerSecond;
        /// USD value of one whole token (WAD).
        uint256 price;
    }

    struct MarketState {
        uint256 cash;
        uint256 totalBorrows;
        uint256 totalReserves;
        uint256 totalShares;
        uint256 borrowIndex;
        uint256 lastAccrual;
    }

    struct BorrowSnapshot {
        uint256 principal;
        uint256 index;
    }

    mapping(address => MarketConfig) public marketConfig;
    mapping(address => MarketState) public marketState;
    address[] public marketTokens;
    mapping(address => mapping(address => uint256)) public supplySharesOf;
    mapping(address => mapping(address => BorrowSnapshot)) public borrowSnapshotOf;

    event MarketListed(address indexed token, uint256 collateralFactor, uint256 reserveFactor, uint256 baseRatePerSecond, uint256 slopePerSecond);
    event PriceUpdated(address indexed token, uint256 price);
    event AccrueInterest(address indexed token, uint256 interestAccumulated, uint256 borrowIndex, uint256 totalBorrows);
    event Supply(address indexed token, address indexed account, uint256 amount, uint256 shares);
    event Withdraw(address indexed token, address indexed account, uint256 amount, uint256 shares);
    event Borrow(address indexed token, address indexed account, uint256 amount, uint256 accountDebt, uint256 totalBorrows);
    event Repay(address indexed token, address indexed account, uint256 amount, uint256 accountDebt, uint256 totalBorrows);

    error MarketNotListed(address token);
    error AlreadyListed(address token);
    error ZeroAmount();
    error InsufficientCash(uint256 cash);
    error InsufficientShares(uint256 shares);
    error InsufficientLiquidity(uint256 shortfall);
    error RepayTooHigh(uint256 debt);

    constructor(address owner_) Ownable(owner_) {}

    function listMarket(address token, uint256 collateralFactor, uint256 reserveFactor, uint256 baseRatePerYear, uint256 slopePerYear, uint256 price)
        external
        onlyOwner
    {
        if (marketConfig[token].listed) revert AlreadyListed(token);
        uint256 baseRatePerSecond = baseRatePerYear / 365 days;
        uint256 slopePerSecond = slopePerYear / 365 days;
        marketConfig[token] = MarketConfig(true, IERC20Metadata(token).decimals(), collateralFactor, reserveFactor, baseRatePerSecond, slopePerSecond, price);
        marketState[token] = MarketState(0, 0, 0, 0, WAD, block.timestamp);
        marketTokens.push(token);
        emit MarketListed(token, collateralFactor, reserveFactor, baseRatePerSecond, slopePerSecond);
        emit PriceUpdated(token, price);
    }

    function setPrice(address token, uint256 price) external onlyOwner {
        _config(token).price = price;
        emit PriceUpdated(token, price);
    }

    function marketCount() external view returns (uint256) {
        return marketTokens.length;
    }

    /// Borrow rate per second (WAD) for a market in the given state.
    function borrowRatePerSecond(address token) external view returns (uint256) {
        return _borrowRate(_config(token), _accrued(token));
    }

    /// Market state as it would be after accruing interest up to this block.
    function accruedState(address token) external view returns (MarketState memory) {
        _config(token);
        return _accrued(token);
    }

    /// Underlying the account could withdraw from the market in this block (interest included).
    function supplyBalanceOf(address token, address account) public view returns (uint256) {
        return _supplyValue(_accrued(token), supplySharesOf[token][account]);
    }

    /// What the account owes the market in this block (interest included).
    function borrowBalanceOf(address token, address account) public view returns (uint256) {
        return _debt(_accrued(token), borrowSnapshotOf[token][account]);
    }

    /// USD (WAD) the account may still borrow, or by how much its debt exceeds its borrowing power.
    function accountLiquidity(address account) public view returns (uint256 liquidity, uint256 shortfall) {
        uint256 power;
        uint256 debt;
        for (uint256 i = 0; i < marketTokens.length; i++) {
            address token = marketTokens[i];
            MarketConfig storage config = marketConfig[token];
            uint256 unit = 10 ** config.decimals;
            power += (((supplyBalanceOf(token, account) * config.price) / unit) * config.collateralFactor) / WAD;
            debt += (borrowBalanceOf(token, account) * config.price) / unit;
        }
        if (power >= debt) return (power - debt, 0);
        return (0, debt - power);
    }

    function supply(address token, uint256 amount) external returns (uint256 shares) {
        if (amount == 0) revert ZeroAmount();
        MarketState storage state = _accrue(token);
        uint256 total = state.cash + state.totalBorrows - state.totalReserves;
        shares = state.totalShares == 0 ? amount : (amount * state.totalShares) / total;
        if (shares == 0) revert ZeroAmount();
        state.cash += amount;
        state.totalShares += shares;
        supplySharesOf[token][msg.sender] += shares;
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        emit Supply(token, msg.sender, amount, shares);
    }

    /// Withdraws `amount` of underlying, or everything the account supplied when `amount` is the
    /// maximum uint256; returns the amount paid out.
    function withdraw(address token, uint256 amount) external returns (uint256) {
        MarketState storage state = _accrue(token);
        uint256 owned = supplySharesOf[token][msg.sender];
        uint256 total = state.cash + state.totalBorrows - state.totalReserves;
        uint256 shares;
        if (amount == type(uint256).max) {
            shares = owned;
            amount = _supplyValue(state, owned);
        } else {
            shares = Math.mulDiv(amount, state.totalShares, total, Math.Rounding.Ceil);
        }
        if (amount == 0) revert ZeroAmount();
        if (shares > owned) revert InsufficientShares(owned);
        if (amount > state.cash) revert InsufficientCash(state.cash);
        state.cash -= amount;
        state.totalShares -= shares;
        supplySharesOf[token][msg.sender] = owned - shares;
        _requireLiquidity(msg.sender);
        IERC20(token).safeTransfer(msg.sender, amount);
        emit Withdraw(token, msg.sender, amount, shares);
        return amount;
    }

    function borrow(address token, uint256 amount) external {
        if (amount == 0) revert ZeroAmount();
        MarketState storage state = _accrue(token);
        if (amount > state.cash) revert InsufficientCash(state.cash);
        BorrowSnapshot storage snapshot = borrowSnapshotOf[token][msg.sender];
        uint256 debt = _debt(state, snapshot) + amount;
        snapshot.principal = debt;
        snapshot.index = state.borrowIndex;
        state.cash -= amount;
        state.totalBorrows += amount;
        _requireLiquidity(msg.sender);
        IERC20(token).safeTransfer(msg.sender, amount);
        emit Borrow(token, msg.sender, amount, debt, state.totalBorrows);
    }

    /// Repays `amount`, or the whole debt when `amount` is the maximum uint256; returns the amount paid.
    function repay(address token, uint256 amount) external returns (uint256) {
        MarketState storage state = _accrue(token);
        BorrowSnapshot storage snapshot = borrowSnapshotOf[token][msg.sender];
        uint256 debt = _debt(state, snapshot);
        if (amount == type(uint256).max) amount = debt;
        if (amount == 0) revert ZeroAmount();
        if (amount > debt) revert RepayTooHigh(debt);
        snapshot.principal = debt - amount;
        snapshot.index = state.borrowIndex;
        state.cash += amount;
        // Each debt rounds down on its own, so their sum can end a few units under totalBorrows;
        // never the other way, but saturate rather than trust that for the last repayment.
        state.totalBorrows = amount > state.totalBorrows ? 0 : state.totalBorrows - amount;
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        emit Repay(token, msg.sender, amount, debt - amount, state.totalBorrows);
        return amount;
    }

    function _config(address token) private view returns (MarketConfig storage config) {
        config = marketConfig[token];
        if (!config.listed) revert MarketNotListed(token);
    }

    function _borrowRate(MarketConfig storage config, MarketState memory state) private view returns (uint256) {
        uint256 total = state.cash + state.totalBorrows - state.totalReserves;
        // total is zero only once suppliers have left a market whose reserves cover its borrows.
        uint256 utilisation = state.totalBorrows == 0 || total == 0 ? 0 : (state.totalBorrows * WAD) / total;
        return config.baseRatePerSecond + (utilisation * config.slopePerSecond) / WAD;
    }

    /// The market's state with interest accrued from its last accrual to this block, not stored.
    function _accrued(address token) private view returns (MarketState memory state) {
        state = marketState[token];
        uint256 elapsed = block.timestamp - state.lastAccrual;
        if (elapsed == 0) return state;
        uint256 factor = _borrowRate(marketConfig[token], state) * elapsed;
        uint256 interest = (state.totalBorrows * factor) / WAD;
        state.totalBorrows += interest;
        state.totalReserves += (interest * marketConfig[token].reserveFactor) / WAD;
        state.borrowIndex += (state.borrowIndex * factor) / WAD;
        state.lastAccrual = block.timestamp;
    }

    function _accrue(address token) private returns (MarketState storage state) {
        _config(token);
        MarketState memory accrued = _accrued(token);
        state = marketState[token];
        if (accrued.lastAccrual == state.lastAccrual) return state;
        emit AccrueInterest(token, accrued.totalBorrows - state.totalBorrows, accrued.borrowIndex, accrued.totalBorrows);
        marketState[token] = accrued;
    }

    function _supplyValue(MarketState memory state, uint256 shares) private pure returns (uint256) {
        if (shares == 0) return 0;
        return (shares * (state.cash + state.totalBorrows - state.totalReserves)) / state.totalShares;
    }

    function _debt(MarketState memory state, BorrowSnapshot memory snapshot) private pure returns (uint256) {
        if (snapshot.principal == 0) return 0;
        return (snapshot.principal * state.borrowIndex) / snapshot.index;
    }

    function _requireLiquidity(address account) private view {
        (, uint256 shortfall) = accountLiquidity(account);
        if (shortfall > 0) revert InsufficientLiquidity(shortfall);
    }
}
