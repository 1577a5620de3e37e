//! A tiny contract the sandbox node's end-to-end suite deploys: a constructor, instance and
//! persistent storage, an event, an authorized call and a function that panics.
#![no_std]

use soroban_sdk::{contract, contracterror, contractimpl, contracttype, panic_with_error, symbol_short, Address, Env};

#[contracttype]
#[derive(Clone)]
pub enum DataKey {
    Admin,
    Counter(Address),
}

#[contracterror]
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
#[repr(u32)]
pub enum FixtureError {
    Boom = 7,
}

#[contract]
pub struct Fixture;

#[contractimpl]
impl Fixture {
    pub fn __constructor(env: Env, admin: Address, start: u32) {
        env.storage().instance().set(&DataKey::Admin, &admin);
        env.storage().instance().set(&symbol_short!("start"), &start);
    }

    pub fn admin(env: Env) -> Address {
        env.storage().instance().get(&DataKey::Admin).unwrap()
    }

    /// Adds `by` to the caller's counter (starting from the constructor's `start`) and emits
    /// `("incr", user) -> new value`.
    pub fn increment(env: Env, user: Address, by: u32) -> u32 {
        user.require_auth();
        let key = DataKey::Counter(user.clone());
        let start: u32 = env.storage().instance().get(&symbol_short!("start")).unwrap_or(0);
        let value = env.storage().persistent().get(&key).unwrap_or(start) + by;
        env.storage().persistent().set(&key, &value);
        // The plain topic/data form keeps the event easy to filter with getEvents.
        #[allow(deprecated)]
        env.events().publish((symbol_short!("incr"), user), value);
        value
    }

    pub fn get(env: Env, user: Address) -> u32 {
        let start: u32 = env.storage().instance().get(&symbol_short!("start")).unwrap_or(0);
        env.storage().persistent().get(&DataKey::Counter(user)).unwrap_or(start)
    }

    pub fn fail(env: Env) {
        panic_with_error!(&env, FixtureError::Boom);
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use soroban_sdk::testutils::Address as _;

    #[test]
    fn counts_per_user_from_start() {
        let env = Env::default();
        env.mock_all_auths();
        let admin = Address::generate(&env);
        let id = env.register(Fixture, (admin.clone(), 10u32));
        let c = FixtureClient::new(&env, &id);
        let u = Address::generate(&env);
        assert_eq!(c.get(&u), 10);
        assert_eq!(c.increment(&u, &5), 15);
        assert_eq!(c.get(&u), 15);
        assert_eq!(c.admin(), admin);
    }

    #[test]
    fn fail_panics_with_code() {
        let env = Env::default();
        let id = env.register(Fixture, (Address::generate(&env), 0u32));
        let c = FixtureClient::new(&env, &id);
        assert_eq!(c.try_fail(), Err(Ok(soroban_sdk::Error::from_contract_error(FixtureError::Boom as u32))));
    }
}
