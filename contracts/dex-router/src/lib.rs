#![no_std]
// Placeholder until the contract lands.
use soroban_sdk as _;
