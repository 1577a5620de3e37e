//! Events: the first topic is a short name (at most 9 characters, so it is a compile-time
//! symbol), the `#[topic]` fields follow, the other fields form the data map.
use soroban_sdk::{contractevent, Address, String, Vec};

#[contractevent(topics = ["vault_set"])]
pub struct VaultSet {
    pub vault: Address,
}

#[contractevent(topics = ["register"])]
pub struct KeeperRegistered {
    #[topic]
    pub operator: Address,
    pub name: String,
    pub stake: i128,
}

#[contractevent(topics = ["dereg"])]
pub struct KeeperDeregistered {
    #[topic]
    pub operator: Address,
    pub refund: i128,
}

// A new draw (`timestamp` = now) or a partial return lowering it (`timestamp` unchanged).
#[contractevent(topics = ["draw_mark"])]
pub struct DrawMarked {
    #[topic]
    pub keeper: Address,
    pub amount: i128,
    pub timestamp: u64,
}

#[contractevent(topics = ["draw_clr"])]
pub struct DrawCleared {
    #[topic]
    pub keeper: Address,
}

#[contractevent(topics = ["execution"])]
pub struct ExecutionRecorded {
    #[topic]
    pub keeper: Address,
    pub success: bool,
    pub profit: i128,
    pub response_time_ms: u64,
}

#[contractevent(topics = ["slash"])]
pub struct KeeperSlashed {
    #[topic]
    pub keeper: Address,
    // Stake sent to the vault.
    pub slashed: i128,
    // Drawn capital the vault wrote down.
    pub written_down: i128,
    pub remaining_stake: i128,
}

#[contractevent(topics = ["bond"])]
pub struct BondAdded {
    #[topic]
    pub operator: Address,
    pub amount: i128,
    // The stake after the call.
    pub stake: i128,
}

#[contractevent(topics = ["unbond"])]
pub struct BondWithdrawn {
    #[topic]
    pub operator: Address,
    pub amount: i128,
    // The stake after the call.
    pub stake: i128,
}

#[contractevent(topics = ["exec_new"])]
pub struct ExecutorDeployed {
    #[topic]
    pub executor: Address,
    pub owner: Address,
}

#[contractevent(topics = ["venues"])]
pub struct VenuesSet {
    pub venues: Vec<Address>,
}

// Publishing. The structs above define the events (their spec entries, and `to_xdr` in tests);
// the contract publishes them through one shared function instead of the per-event code that
// `#[contractevent]` generates, with the same topics and the same data map (keys sorted by
// name, as the generated code sorts them), which saves 0.7-0.8 KB of wasm.
use soroban_sdk::{symbol_short, Env, EnvBase, IntoVal, SpecShakingMarker, Symbol, Val};

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

impl VaultSet {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("vault_set"),
            None,
            &["vault"],
            &[self.vault.to_val()],
        );
    }
}

impl KeeperRegistered {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("register"),
            Some(&self.operator),
            &["name", "stake"],
            &[self.name.to_val(), self.stake.into_val(env)],
        );
    }
}

impl KeeperDeregistered {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("dereg"),
            Some(&self.operator),
            &["refund"],
            &[self.refund.into_val(env)],
        );
    }
}

impl DrawMarked {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("draw_mark"),
            Some(&self.keeper),
            &["amount", "timestamp"],
            &[self.amount.into_val(env), self.timestamp.into_val(env)],
        );
    }
}

impl DrawCleared {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(env, symbol_short!("draw_clr"), Some(&self.keeper), &[], &[]);
    }
}

impl ExecutionRecorded {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("execution"),
            Some(&self.keeper),
            &["profit", "response_time_ms", "success"],
            &[
                self.profit.into_val(env),
                self.response_time_ms.into_val(env),
                self.success.into(),
            ],
        );
    }
}

impl KeeperSlashed {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("slash"),
            Some(&self.keeper),
            &["remaining_stake", "slashed", "written_down"],
            &[
                self.remaining_stake.into_val(env),
                self.slashed.into_val(env),
                self.written_down.into_val(env),
            ],
        );
    }
}

// `bond` and `unbond` have the same fields.
fn emit_bond(env: &Env, name: Symbol, operator: &Address, amount: i128, stake: i128) {
    emit(
        env,
        name,
        Some(operator),
        &["amount", "stake"],
        &[amount.into_val(env), stake.into_val(env)],
    );
}

impl BondAdded {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit_bond(
            env,
            symbol_short!("bond"),
            &self.operator,
            self.amount,
            self.stake,
        );
    }
}

impl BondWithdrawn {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit_bond(
            env,
            symbol_short!("unbond"),
            &self.operator,
            self.amount,
            self.stake,
        );
    }
}

impl ExecutorDeployed {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("exec_new"),
            Some(&self.executor),
            &["owner"],
            &[self.owner.to_val()],
        );
    }
}

impl VenuesSet {
    pub fn emit(&self, env: &Env) {
        Self::spec_shaking_marker();
        emit(
            env,
            symbol_short!("venues"),
            None,
            &["venues"],
            &[self.venues.to_val()],
        );
    }
}
