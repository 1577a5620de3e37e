//! Building swaps, reading call results (contract error codes, auth failures) and checking that
//! a flash fill reverted without a trace.
use super::{MockPoolClient, Setup};
use executor::{Request, Swap, SwapVenue};
use soroban_sdk::{Address, Vec};

pub fn swap(venue: SwapVenue, path: &[&Address], amount_in: i128, min_out: i128) -> Swap {
    let env = match &venue {
        SwapVenue::Router(a) | SwapVenue::Comet(a) => a.env().clone(),
    };
    let mut p: Vec<Address> = Vec::new(&env);
    for a in path {
        p.push_back((*a).clone());
    }
    Swap {
        venue,
        path: p,
        amount_in,
        min_out,
    }
}

pub fn flatten<T, C>(
    r: Result<Result<T, C>, Result<soroban_sdk::Error, soroban_sdk::InvokeError>>,
) -> Result<T, soroban_sdk::Error> {
    match r {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => panic!("return value conversion failed"),
        Err(Ok(e)) => Err(e),
        Err(Err(e)) => panic!("invoke error {e:?}"),
    }
}

pub fn contract_code(r: Result<impl core::fmt::Debug, soroban_sdk::Error>) -> u32 {
    let e = r.expect_err("the call should fail");
    assert!(
        e.is_type(soroban_sdk::xdr::ScErrorType::Contract),
        "not a contract error: {e:?}"
    );
    e.get_code()
}

/// A failed `require_auth` is Error(Auth, InvalidAction) inside the host; a test call sees it
/// as Error(Context, InvalidAction) once it has crossed the contract-call boundary.
pub fn is_auth_error(r: Result<impl core::fmt::Debug, soroban_sdk::Error>) -> bool {
    use soroban_sdk::xdr::{ScErrorCode, ScErrorType};
    let e = r.expect_err("the call should fail");
    (e.is_type(ScErrorType::Auth) || e.is_type(ScErrorType::Context))
        && e.is_code(ScErrorCode::InvalidAction)
}

/// Every outcome that must revert: the vault's books, the registry's record, the pool's and
/// the executor's balances are exactly as before.
pub fn assert_reverts(
    s: &Setup,
    draw: i128,
    requests: &Vec<Request>,
    swaps: &Vec<Swap>,
    min_proceeds: i128,
    code: u32,
) {
    let state = s.vault().get_state();
    let info = s.registry().get_keeper(&s.exec_id);
    let balances = |s: &Setup| {
        [&s.vault_id, &s.pool, &s.exec_id, &s.owner]
            .map(|a| (s.balance(&s.usdc, a), s.balance(&s.weth, a)))
    };
    let held = balances(s);
    assert_eq!(
        contract_code(s.liquidate_as(&s.owner.clone(), draw, requests, swaps, min_proceeds)),
        code
    );
    assert_eq!(s.vault().get_state(), state);
    assert_eq!(s.vault().get_keeper_draw(&s.exec_id), 0);
    assert_eq!(s.registry().get_keeper(&s.exec_id), info);
    assert_eq!(balances(s), held);
    assert_eq!(MockPoolClient::new(&s.env, &s.pool).fills(), 0);
}
