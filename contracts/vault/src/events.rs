//! Events: the first topic is a short name (at most 9 characters, so it is a compile-time
//! symbol), the `#[topic]` fields follow, the other fields form the data map.
use soroban_sdk::{contractevent, Address};

#[contractevent(topics = ["registry"])]
pub struct RegistrySet {
    pub registry: Address,
}

#[contractevent(topics = ["pause"])]
pub struct PauseChanged {
    pub deposits: bool,
    pub draws: bool,
}

#[contractevent(topics = ["deposit"])]
pub struct Deposited {
    #[topic]
    pub depositor: Address,
    pub amount: i128,
    pub shares: i128,
    // Shares locked with the vault (1000 on the first deposit, else 0).
    pub dead_shares: i128,
}

#[contractevent(topics = ["withdraw"])]
pub struct Withdrawn {
    #[topic]
    pub depositor: Address,
    pub shares: i128,
    pub amount: i128,
}

#[contractevent(topics = ["draw"])]
pub struct Drawn {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
}

#[contractevent(topics = ["return"])]
pub struct ProceedsReturned {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
    pub profit: i128,
    // Capital still out after this return (0 = draw closed).
    pub remaining: i128,
    pub response_time_ms: u64,
    // Paid to the keeper out of the gross profit (keeper_fee_bps).
    pub fee: i128,
}

#[contractevent(topics = ["flash"])]
pub struct FlashDrawn {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
    // Booked for the depositors (locked, unlocking over profit_unlock_secs).
    pub profit: i128,
    // Paid to the keeper.
    pub fee: i128,
}

#[contractevent(topics = ["wreq"])]
pub struct WithdrawRequested {
    #[topic]
    pub depositor: Address,
    pub shares: i128,
}

#[contractevent(topics = ["write_off"])]
pub struct DrawWrittenOff {
    #[topic]
    pub keeper: Address,
    // Capital removed from the books.
    pub written_down: i128,
    // Slashed stake received from the registry and booked into total_usdc.
    pub recovered: i128,
}

// Publishing. The structs above define the events (their spec entries, and `to_xdr` in tests);
// the contract publishes them through one shared function instead of the per-event code that
// `#[contractevent]` generates, with the same topics and the same data map (keys sorted by
// name, as the generated code sorts them), which saves 0.7-0.8 KB of wasm.
use soroban_sdk::{symbol_short, Env, EnvBase, IntoVal, SpecShakingMarker, Symbol, Val, Vec};

fn emit(env: &Env, name: Symbol, topic: Option<&Address>, keys: &[&str], vals: &[Val]) {
    let mut topics: Vec<Val> = Vec::new(env);
    topics.push_back(name.to_val());
    if let Some(a) = topic {
        topics.push_back(a.to_val());
    }
    let data = env.sparse_map_new_from_slices(keys, vals).unwrap();
    #[allow(deprecated)]
    env.events().publish(topics, data.to_val());
}

impl RegistrySet {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("registry"),
            None,
            &["registry"],
            &[self.registry.to_val()],
        );
    }
}

impl PauseChanged {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("pause"),
            None,
            &["deposits", "draws"],
            &[self.deposits.into(), self.draws.into()],
        );
    }
}

impl Deposited {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("deposit"),
            Some(&self.depositor),
            &["amount", "dead_shares", "shares"],
            &[
                self.amount.into_val(env),
                self.dead_shares.into_val(env),
                self.shares.into_val(env),
            ],
        );
    }
}

impl Withdrawn {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("withdraw"),
            Some(&self.depositor),
            &["amount", "shares"],
            &[self.amount.into_val(env), self.shares.into_val(env)],
        );
    }
}

impl Drawn {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("draw"),
            Some(&self.keeper),
            &["amount"],
            &[self.amount.into_val(env)],
        );
    }
}

impl ProceedsReturned {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("return"),
            Some(&self.keeper),
            &["amount", "fee", "profit", "remaining", "response_time_ms"],
            &[
                self.amount.into_val(env),
                self.fee.into_val(env),
                self.profit.into_val(env),
                self.remaining.into_val(env),
                self.response_time_ms.into_val(env),
            ],
        );
    }
}

impl DrawWrittenOff {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("write_off"),
            Some(&self.keeper),
            &["recovered", "written_down"],
            &[
                self.recovered.into_val(env),
                self.written_down.into_val(env),
            ],
        );
    }
}

impl FlashDrawn {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("flash"),
            Some(&self.keeper),
            &["amount", "fee", "profit"],
            &[
                self.amount.into_val(env),
                self.fee.into_val(env),
                self.profit.into_val(env),
            ],
        );
    }
}

impl WithdrawRequested {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("wreq"),
            Some(&self.depositor),
            &["shares"],
            &[self.shares.into_val(env)],
        );
    }
}
