//! Approved executors (deploy_executor, is_executor, the `approved` flag) and venues.
extern crate std;

use soroban_sdk::testutils::{Address as _, Events as _, MockAuth, MockAuthInvoke};
use soroban_sdk::xdr::{Limited, Limits, ReadXdr, ScSpecEntry};
use soroban_sdk::{vec, Address, BytesN, Event as _, IntoVal, Vec};

use crate::events::{ExecutorDeployed, VenuesSet};
use crate::test_fixture::*;
use crate::RegistryClient;

fn salt(t: &T, b: u8) -> BytesN<32> {
    BytesN::from_array(&t.env, &[b; 32])
}

#[test]
fn deploy_executor_deploys_the_wasm_and_approves_it() {
    let t = T::new();
    let owner = Address::generate(&t.env);
    let expected_at = t
        .env
        .deployer()
        .with_address(t.reg.clone(), salt(&t, 7))
        .deployed_address();
    let exec = t.c().deploy_executor(&owner, &salt(&t, 7));
    assert_eq!(exec, expected_at);
    let ev = t.env.events().all().filter_by_contract(&t.reg);
    let expected = ExecutorDeployed {
        executor: exec.clone(),
        owner: owner.clone(),
    }
    .to_xdr(&t.env, &t.reg);
    assert_eq!(ev.events().last(), Some(&expected));
    assert!(t.c().is_executor(&exec));
    assert!(!t.c().is_executor(&owner));
    // The executor registers itself (here: a call in its name) and is approved.
    t.mint(&exec, STAKE);
    t.c().register(&exec, &t.name("exec"));
    assert!(t.c().get_keeper(&exec).approved);
    // A second executor of the same owner needs another salt.
    assert!(t.c().try_deploy_executor(&owner, &salt(&t, 7)).is_err());
    let second = t.c().deploy_executor(&owner, &salt(&t, 8));
    assert!(second != exec && t.c().is_executor(&second));
}

#[test]
fn deploy_executor_needs_the_owner_signature() {
    let t = T::new();
    let owner = Address::generate(&t.env);
    t.env.set_auths(&[]);
    assert!(t.c().try_deploy_executor(&owner, &salt(&t, 1)).is_err());
    // Someone else's signature does not do either.
    let other = Address::generate(&t.env);
    t.env.mock_auths(&[MockAuth {
        address: &other,
        invoke: &MockAuthInvoke {
            contract: &t.reg,
            fn_name: "deploy_executor",
            args: (owner.clone(), salt(&t, 1)).into_val(&t.env),
            sub_invokes: &[],
        },
    }]);
    assert!(t.c().try_deploy_executor(&owner, &salt(&t, 1)).is_err());
    t.env.mock_all_auths();
    let at = t
        .env
        .deployer()
        .with_address(t.reg.clone(), salt(&t, 1))
        .deployed_address();
    assert!(!t.c().is_executor(&at));
    // With the owner's signature the same call deploys.
    assert_eq!(t.c().deploy_executor(&owner, &salt(&t, 1)), at);
}

#[test]
fn a_keeper_that_registers_directly_is_not_approved() {
    let t = T::new();
    // An operator account, and a contract of the same code the registry did not deploy: the
    // attack is to run an executor-looking contract outside the registry's control.
    let k = t.keeper();
    assert!(!t.c().get_keeper(&k).approved);
    #[allow(deprecated)]
    let lookalike = t
        .env
        .deployer()
        .with_address(Address::generate(&t.env), salt(&t, 3))
        .deploy_v2(t.executor_wasm.clone(), vec_of_four(&t));
    assert!(!t.c().is_executor(&lookalike));
    t.mint(&lookalike, STAKE);
    t.c().register(&lookalike, &t.name("lookalike"));
    assert!(!t.c().get_keeper(&lookalike).approved);
}

fn vec_of_four(t: &T) -> Vec<soroban_sdk::Val> {
    let a = Address::generate(&t.env);
    vec![&t.env, a.to_val(), a.to_val(), a.to_val(), a.to_val()]
}

#[test]
fn venues_are_set_by_the_admin_only() {
    let t = T::new();
    assert_eq!(t.c().get_venues().len(), 0);
    let pool = Address::generate(&t.env);
    let router = Address::generate(&t.env);
    let venues = vec![&t.env, pool.clone(), router.clone()];
    // The attack: anyone but the admin adds its own pool. Refused, even when the caller signs.
    let stranger = Address::generate(&t.env);
    t.env.mock_auths(&[MockAuth {
        address: &stranger,
        invoke: &MockAuthInvoke {
            contract: &t.reg,
            fn_name: "set_venues",
            args: (venues.clone(),).into_val(&t.env),
            sub_invokes: &[],
        },
    }]);
    assert!(t.c().try_set_venues(&venues).is_err());
    assert_eq!(t.c().get_venues().len(), 0);
    // The admin's signature.
    t.env.mock_auths(&[MockAuth {
        address: &t.admin,
        invoke: &MockAuthInvoke {
            contract: &t.reg,
            fn_name: "set_venues",
            args: (venues.clone(),).into_val(&t.env),
            sub_invokes: &[],
        },
    }]);
    t.c().set_venues(&venues);
    let ev = t.env.events().all().filter_by_contract(&t.reg);
    let expected = VenuesSet {
        venues: venues.clone(),
    }
    .to_xdr(&t.env, &t.reg);
    assert_eq!(ev.events().last(), Some(&expected));
    assert_eq!(t.c().get_venues(), venues);
    // Replaced, not appended.
    t.env.mock_all_auths();
    t.c().set_venues(&vec![&t.env, router.clone()]);
    assert_eq!(t.c().get_venues(), vec![&t.env, router]);
    t.c().set_venues(&Vec::new(&t.env));
    assert_eq!(t.c().get_venues().len(), 0);
}

/// The names of `__constructor`'s parameters in a wasm's contract spec.
fn constructor_params(wasm: &[u8]) -> Option<std::vec::Vec<std::string::String>> {
    let mut i = 8;
    let leb = |i: &mut usize| {
        let (mut n, mut shift) = (0usize, 0);
        loop {
            let c = wasm[*i];
            *i += 1;
            n |= ((c & 0x7f) as usize) << shift;
            shift += 7;
            if c < 0x80 {
                return n;
            }
        }
    };
    while i < wasm.len() {
        let id = wasm[i];
        i += 1;
        let len = leb(&mut i);
        let end = i + len;
        if id == 0 {
            let mut j = i;
            let name_len = leb(&mut j);
            if &wasm[j..j + name_len] == b"contractspecv0" {
                let mut r = Limited::new(&wasm[j + name_len..end], Limits::none());
                for entry in ScSpecEntry::read_xdr_iter(&mut r) {
                    if let Ok(ScSpecEntry::FunctionV0(f)) = entry {
                        if f.name.to_utf8_string_lossy() == "__constructor" {
                            return Some(
                                f.inputs
                                    .iter()
                                    .map(|p| p.name.to_utf8_string_lossy())
                                    .collect(),
                            );
                        }
                    }
                }
            }
        }
        i = end;
    }
    None
}

#[test]
fn deploy_executor_with_the_built_executor_wasm() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/wasm/executor.wasm");
    let Ok(wasm) = std::fs::read(&path) else {
        std::eprintln!(
            "SKIPPED deploy_executor_with_the_built_executor_wasm: {} is missing \
             (bash scripts/build-wasm.sh executor)",
            path.display()
        );
        return;
    };
    let params = constructor_params(&wasm);
    let want = ["owner", "vault", "usdc", "registry"];
    if params
        .as_deref()
        .map(|p| p.iter().map(|s| s.as_str()).eq(want))
        != Some(true)
    {
        std::eprintln!(
            "SKIPPED deploy_executor_with_the_built_executor_wasm: the executor's constructor \
             in {} takes {params:?}, not (owner, vault, usdc, registry)",
            path.display()
        );
        return;
    }
    let t = T::new();
    let hash = t.env.deployer().upload_contract_wasm(wasm.as_slice());
    let reg = t
        .env
        .register(crate::Registry, (t.admin.clone(), config(&t.usdc, &hash)));
    let c = RegistryClient::new(&t.env, &reg);
    c.set_vault(&t.vault);
    let owner = Address::generate(&t.env);
    let exec = c.deploy_executor(&owner, &salt(&t, 9));
    assert!(c.is_executor(&exec));
    t.mint(&exec, STAKE);
    c.register(&exec, &t.name("exec"));
    assert!(c.get_keeper(&exec).approved);
    assert!(c.try_deploy_executor(&owner, &salt(&t, 9)).is_err());
}
