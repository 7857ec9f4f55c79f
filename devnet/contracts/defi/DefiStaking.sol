// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Synthetix StakingRewards math over stake weights: a flexible stake weighs its amount, a locked
/// stake weighs its amount times the boost of its lock (30 days 1.2x, 90 days 1.5x) and can only be
/// withdrawn once unlocked. Rewards stream at `rewardRate` per second shared by weight.
contract DefiStaking is Ownable {
    using SafeERC20 for IERC20;

    struct Lock {
        uint128 amount;
        uint64 unlockTime;
        uint32 boostBps;
        bool withdrawn;
    }

    uint256 public constant SHORT_LOCK = 30 days;
    uint256 public constant LONG_LOCK = 90 days;
    uint256 public constant SHORT_LOCK_BOOST_BPS = 12_000;
    uint256 public constant LONG_LOCK_BOOST_BPS = 15_000;

    IERC20 public immutable stakingToken;
    IERC20 public immutable rewardToken;

    uint256 public rewardRate;
    uint256 public periodFinish;
    uint256 public lastUpdateTime;
    /// Rewards per unit of weight since the start, scaled by 1e18.
    uint256 public rewardPerWeightStored;
    uint256 public totalWeight;

    mapping(address => uint256) public weightOf;
    mapping(address => uint256) public flexibleBalanceOf;
    mapping(address => uint256) public rewardPerWeightPaid;
    /// Rewards earned up to the account's last update and not yet claimed.
    mapping(address => uint256) public rewards;
    mapping(address => Lock[]) private _locks;

    event RewardAdded(uint256 reward, uint256 rewardRate, uint256 periodFinish);
    event Staked(address indexed user, uint256 amount);
    event StakedLocked(address indexed user, uint256 indexed lockId, uint256 amount, uint256 unlockTime);
    event Withdrawn(address indexed user, uint256 amount);
    event WithdrawnLocked(address indexed user, uint256 indexed lockId, uint256 amount);
    event RewardPaid(address indexed user, uint256 reward);

    error ZeroAmount();
    error SameToken();
    error UnsupportedLock(uint256 duration);
    error InsufficientStake(uint256 available);
    error StillLocked(uint256 unlockTime);
    error AlreadyWithdrawn(uint256 lockId);
    error RewardTooHigh();

    constructor(IERC20 stakingToken_, IERC20 rewardToken_, address owner_) Ownable(owner_) {
        if (address(stakingToken_) == address(rewardToken_)) revert SameToken();
        stakingToken = stakingToken_;
        rewardToken = rewardToken_;
    }

    modifier updateReward(address account) {
        rewardPerWeightStored = rewardPerWeight();
        lastUpdateTime = lastTimeRewardApplicable();
        if (account != address(0)) {
            rewards[account] = earned(account);
            rewardPerWeightPaid[account] = rewardPerWeightStored;
        }
        _;
    }

    function lastTimeRewardApplicable() public view returns (uint256) {
        return block.timestamp < periodFinish ? block.timestamp : periodFinish;
    }

    function rewardPerWeight() public view returns (uint256) {
        if (totalWeight == 0) return rewardPerWeightStored;
        return rewardPerWeightStored + ((lastTimeRewardApplicable() - lastUpdateTime) * rewardRate * 1e18) / totalWeight;
    }

    function earned(address account) public view returns (uint256) {
        return (weightOf[account] * (rewardPerWeight() - rewardPerWeightPaid[account])) / 1e18 + rewards[account];
    }

    function locksOf(address account) external view returns (Lock[] memory) {
        return _locks[account];
    }

    function stake(uint256 amount) external updateReward(msg.sender) {
        if (amount == 0) revert ZeroAmount();
        flexibleBalanceOf[msg.sender] += amount;
        weightOf[msg.sender] += amount;
        totalWeight += amount;
        stakingToken.safeTransferFrom(msg.sender, address(this), amount);
        emit Staked(msg.sender, amount);
    }

    function stakeLocked(uint256 amount, uint256 duration) external updateReward(msg.sender) returns (uint256 lockId) {
        if (amount == 0) revert ZeroAmount();
        uint256 boostBps;
        if (duration == SHORT_LOCK) boostBps = SHORT_LOCK_BOOST_BPS;
        else if (duration == LONG_LOCK) boostBps = LONG_LOCK_BOOST_BPS;
        else revert UnsupportedLock(duration);
        uint256 weight = (amount * boostBps) / 10_000;
        weightOf[msg.sender] += weight;
        totalWeight += weight;
        lockId = _locks[msg.sender].length;
        uint256 unlockTime = block.timestamp + duration;
        _locks[msg.sender].push(Lock(uint128(amount), uint64(unlockTime), uint32(boostBps), false));
        stakingToken.safeTransferFrom(msg.sender, address(this), amount);
        emit StakedLocked(msg.sender, lockId, amount, unlockTime);
    }

    function withdraw(uint256 amount) external updateReward(msg.sender) {
        uint256 available = flexibleBalanceOf[msg.sender];
        if (amount == 0) revert ZeroAmount();
        if (amount > available) revert InsufficientStake(available);
        flexibleBalanceOf[msg.sender] = available - amount;
        weightOf[msg.sender] -= amount;
        totalWeight -= amount;
        stakingToken.safeTransfer(msg.sender, amount);
        emit Withdrawn(msg.sender, amount);
    }

    function withdrawLocked(uint256 lockId) external updateReward(msg.sender) {
        Lock storage lock = _locks[msg.sender][lockId];
        if (lock.withdrawn) revert AlreadyWithdrawn(lockId);
        if (block.timestamp < lock.unlockTime) revert StillLocked(lock.unlockTime);
        lock.withdrawn = true;
        uint256 weight = (uint256(lock.amount) * lock.boostBps) / 10_000;
        weightOf[msg.sender] -= weight;
        totalWeight -= weight;
        stakingToken.safeTransfer(msg.sender, lock.amount);
        emit WithdrawnLocked(msg.sender, lockId, lock.amount);
    }

    function claim() external updateReward(msg.sender) returns (uint256 reward) {
        reward = rewards[msg.sender];
        if (reward > 0) {
            rewards[msg.sender] = 0;
            rewardToken.safeTransfer(msg.sender, reward);
            emit RewardPaid(msg.sender, reward);
        }
    }

    /// Starts (or extends) a reward period; the reward tokens must already be in the contract.
    function notifyRewardAmount(uint256 reward, uint256 duration) external onlyOwner updateReward(address(0)) {
        if (block.timestamp >= periodFinish) {
            rewardRate = reward / duration;
        } else {
            uint256 leftover = (periodFinish - block.timestamp) * rewardRate;
            rewardRate = (reward + leftover) / duration;
        }
        if (rewardRate * duration > rewardToken.balanceOf(address(this))) revert RewardTooHigh();
        lastUpdateTime = block.timestamp;
        periodFinish = block.timestamp + duration;
        emit RewardAdded(reward, rewardRate, periodFinish);
    }
}
