use soroban_sdk::{
    contract, contractimpl, panic_with_error, token, xdr::ToXdr, Address, Bytes, BytesN, Env, Vec,
};

use crate::{errors::RouterError, events, math, pair::PairClient, storage};

/// Soroswap-compatible router and pair factory.
#[contract]
pub struct DexRouter;

#[contractimpl]
impl DexRouter {
    /// `pair_wasm_hash`: uploaded `dex-pair` wasm that `create_pair` deploys.
    pub fn __constructor(e: Env, admin: Address, pair_wasm_hash: BytesN<32>) {
        storage::set_admin(&e, &admin);
        storage::set_pair_wasm_hash(&e, &pair_wasm_hash);
        storage::extend_instance(&e);
    }

    pub fn get_admin(e: Env) -> Address {
        storage::get_admin(&e)
    }

    /// Admin only. While paused every swap, quote and liquidity change fails with `Paused`
    /// (351): a transient venue outage for testing a client's fallback path.
    pub fn set_paused(e: Env, paused: bool) {
        storage::extend_instance(&e);
        storage::get_admin(&e).require_auth();
        storage::set_paused(&e, paused);
        events::set_paused(&e, paused);
    }

    pub fn is_paused(e: Env) -> bool {
        storage::is_paused(&e)
    }

    /// Deploys a pair for `token_a`/`token_b` (sorted) and registers it. Permissionless.
    pub fn create_pair(e: Env, token_a: Address, token_b: Address) -> Address {
        storage::extend_instance(&e);
        let (t0, t1) = sort_tokens(&e, &token_a, &token_b);
        if storage::get_pair(&e, &t0, &t1).is_some() {
            panic_with_error!(&e, RouterError::PairExists);
        }
        let mut salt_src = Bytes::new(&e);
        salt_src.append(&t0.clone().to_xdr(&e));
        salt_src.append(&t1.clone().to_xdr(&e));
        let salt: BytesN<32> = e.crypto().sha256(&salt_src).into();
        #[allow(deprecated)] // deploy_v2 = create_contract_with_constructor, the host call every protocol >= 22 node has
        let pair = e
            .deployer()
            .with_current_contract(salt)
            .deploy_v2(storage::get_pair_wasm_hash(&e), (e.current_contract_address(), t0.clone(), t1.clone()));
        storage::add_pair(&e, &t0, &t1, &pair);
        events::pair_created(&e, &t0, &t1, &pair);
        pair
    }

    /// Admin only: adopts a pair deployed elsewhere whose factory is this router and whose
    /// tokens are sorted (`token_0 < token_1`).
    pub fn register_pair(e: Env, pair: Address) {
        storage::extend_instance(&e);
        storage::get_admin(&e).require_auth();
        let client = PairClient::new(&e, &pair);
        let (t0, t1) = (client.token_0(), client.token_1());
        if client.factory() != e.current_contract_address() || t0 >= t1 {
            panic_with_error!(&e, RouterError::ForeignPair);
        }
        if storage::get_pair(&e, &t0, &t1).is_some() {
            panic_with_error!(&e, RouterError::PairExists);
        }
        storage::add_pair(&e, &t0, &t1, &pair);
        events::pair_created(&e, &t0, &t1, &pair);
    }

    /// The pair for two tokens (either order), or `PairNotFound`.
    pub fn router_pair_for(e: Env, token_a: Address, token_b: Address) -> Address {
        let (t0, t1) = sort_tokens(&e, &token_a, &token_b);
        storage::get_pair(&e, &t0, &t1).unwrap_or_else(|| panic_with_error!(&e, RouterError::PairNotFound))
    }

    pub fn all_pairs(e: Env) -> Vec<Address> {
        storage::get_all_pairs(&e)
    }

    /// Reserves of the `token_a`/`token_b` pair in the caller's order.
    pub fn get_reserves(e: Env, token_a: Address, token_b: Address) -> (i128, i128) {
        reserves_for(&e, &token_a, &token_b).1
    }

    /// Adds liquidity from `to` at the pool ratio (Uniswap v2 rules): the amount of one side
    /// is `desired`, the other is `floor(desired * r_other / r_this)` when that fits under its
    /// own `desired`; each must reach its `min`. Creates the pair when absent.
    /// Returns `(amount_a, amount_b, shares)`.
    #[allow(clippy::too_many_arguments)]
    pub fn add_liquidity(
        e: Env,
        token_a: Address,
        token_b: Address,
        amount_a_desired: i128,
        amount_b_desired: i128,
        amount_a_min: i128,
        amount_b_min: i128,
        to: Address,
        deadline: u64,
    ) -> (i128, i128, i128) {
        storage::extend_instance(&e);
        to.require_auth();
        check_live(&e, deadline);
        if amount_a_desired <= 0 || amount_b_desired <= 0 || amount_a_min < 0 || amount_b_min < 0 {
            panic_with_error!(&e, RouterError::InvalidAmount);
        }
        let (t0, t1) = sort_tokens(&e, &token_a, &token_b);
        if storage::get_pair(&e, &t0, &t1).is_none() {
            Self::create_pair(e.clone(), token_a.clone(), token_b.clone());
        }
        let (pair, (ra, rb)) = reserves_for(&e, &token_a, &token_b);
        let (amount_a, amount_b) = if ra == 0 && rb == 0 {
            (amount_a_desired, amount_b_desired)
        } else {
            let b_optimal = quote(&e, amount_a_desired, ra, rb);
            if b_optimal <= amount_b_desired {
                if b_optimal < amount_b_min {
                    panic_with_error!(&e, RouterError::InsufficientBAmount);
                }
                (amount_a_desired, b_optimal)
            } else {
                let a_optimal = quote(&e, amount_b_desired, rb, ra);
                if a_optimal > amount_a_desired || a_optimal < amount_a_min {
                    panic_with_error!(&e, RouterError::InsufficientAAmount);
                }
                (a_optimal, amount_b_desired)
            }
        };
        token::Client::new(&e, &token_a).transfer(&to, &pair, &amount_a);
        token::Client::new(&e, &token_b).transfer(&to, &pair, &amount_b);
        let shares = PairClient::new(&e, &pair).deposit(&to);
        (amount_a, amount_b, shares)
    }

    /// Burns `liquidity` LP shares of `to` and pays both tokens to `to`.
    /// Returns `(amount_a, amount_b)`.
    #[allow(clippy::too_many_arguments)]
    pub fn remove_liquidity(
        e: Env,
        token_a: Address,
        token_b: Address,
        liquidity: i128,
        amount_a_min: i128,
        amount_b_min: i128,
        to: Address,
        deadline: u64,
    ) -> (i128, i128) {
        storage::extend_instance(&e);
        to.require_auth();
        check_live(&e, deadline);
        if liquidity <= 0 {
            panic_with_error!(&e, RouterError::InvalidAmount);
        }
        let pair = Self::router_pair_for(e.clone(), token_a.clone(), token_b.clone());
        let (a0, a1) = PairClient::new(&e, &pair).withdraw(&to, &liquidity, &to);
        let (amount_a, amount_b) = if token_a < token_b { (a0, a1) } else { (a1, a0) };
        if amount_a < amount_a_min {
            panic_with_error!(&e, RouterError::InsufficientAAmount);
        }
        if amount_b < amount_b_min {
            panic_with_error!(&e, RouterError::InsufficientBAmount);
        }
        (amount_a, amount_b)
    }

    /// Sells exactly `amount_in` of `path[0]` from `to` for at least `amount_out_min` of the
    /// last token, paid to `to`. Returns the amount at every hop.
    pub fn swap_exact_tokens_for_tokens(
        e: Env,
        amount_in: i128,
        amount_out_min: i128,
        path: Vec<Address>,
        to: Address,
        deadline: u64,
    ) -> Vec<i128> {
        storage::extend_instance(&e);
        to.require_auth();
        check_live(&e, deadline);
        if amount_in <= 0 || amount_out_min < 0 {
            panic_with_error!(&e, RouterError::InvalidAmount);
        }
        let amounts = amounts_out(&e, amount_in, &path);
        if amounts.last().unwrap() < amount_out_min {
            panic_with_error!(&e, RouterError::InsufficientOutputAmount);
        }
        execute_swap(&e, &amounts, &path, &to);
        amounts
    }

    /// Buys exactly `amount_out` of the last token for at most `amount_in_max` of `path[0]`,
    /// paid by `to`. Returns the amount at every hop.
    pub fn swap_tokens_for_exact_tokens(
        e: Env,
        amount_out: i128,
        amount_in_max: i128,
        path: Vec<Address>,
        to: Address,
        deadline: u64,
    ) -> Vec<i128> {
        storage::extend_instance(&e);
        to.require_auth();
        check_live(&e, deadline);
        if amount_out <= 0 || amount_in_max <= 0 {
            panic_with_error!(&e, RouterError::InvalidAmount);
        }
        let amounts = amounts_in(&e, amount_out, &path);
        if amounts.first().unwrap() > amount_in_max {
            panic_with_error!(&e, RouterError::ExcessiveInputAmount);
        }
        execute_swap(&e, &amounts, &path, &to);
        amounts
    }

    /// Quote: the amount at every hop for selling exactly `amount_in` of `path[0]`.
    pub fn router_get_amounts_out(e: Env, amount_in: i128, path: Vec<Address>) -> Vec<i128> {
        if amount_in <= 0 {
            panic_with_error!(&e, RouterError::InvalidAmount);
        }
        amounts_out(&e, amount_in, &path)
    }

    /// Quote: the amount at every hop for buying exactly `amount_out` of the last token.
    pub fn router_get_amounts_in(e: Env, amount_out: i128, path: Vec<Address>) -> Vec<i128> {
        if amount_out <= 0 {
            panic_with_error!(&e, RouterError::InvalidAmount);
        }
        amounts_in(&e, amount_out, &path)
    }
}

fn check_live(e: &Env, deadline: u64) {
    if e.ledger().timestamp() > deadline {
        panic_with_error!(e, RouterError::Expired);
    }
}

fn check_not_paused(e: &Env) {
    if storage::is_paused(e) {
        panic_with_error!(e, RouterError::Paused);
    }
}

fn sort_tokens(e: &Env, a: &Address, b: &Address) -> (Address, Address) {
    if a == b {
        panic_with_error!(e, RouterError::IdenticalTokens);
    }
    if a < b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    }
}

/// The pair for `a`/`b` and its reserves in the order (a, b).
fn reserves_for(e: &Env, a: &Address, b: &Address) -> (Address, (i128, i128)) {
    check_not_paused(e);
    let (t0, t1) = sort_tokens(e, a, b);
    let pair = storage::get_pair(e, &t0, &t1).unwrap_or_else(|| panic_with_error!(e, RouterError::PairNotFound));
    let (r0, r1) = PairClient::new(e, &pair).get_reserves();
    let reserves = if *a == t0 { (r0, r1) } else { (r1, r0) };
    (pair, reserves)
}

/// `floor(amount_a * reserve_b / reserve_a)`: the other side at the pool ratio.
fn quote(e: &Env, amount_a: i128, reserve_a: i128, reserve_b: i128) -> i128 {
    math::mul_div_floor(amount_a, reserve_b, reserve_a).unwrap_or_else(|| panic_with_error!(e, RouterError::Overflow))
}

fn check_path(e: &Env, path: &Vec<Address>) {
    if path.len() < 2 {
        panic_with_error!(e, RouterError::InvalidPath);
    }
}

fn amounts_out(e: &Env, amount_in: i128, path: &Vec<Address>) -> Vec<i128> {
    check_path(e, path);
    let mut amounts = Vec::from_array(e, [amount_in]);
    let mut current = amount_in;
    for i in 0..path.len() - 1 {
        let (_, (rin, rout)) = reserves_for(e, &path.get_unchecked(i), &path.get_unchecked(i + 1));
        current = math::amount_out(current, rin, rout)
            .unwrap_or_else(|| panic_with_error!(e, RouterError::InsufficientLiquidity));
        amounts.push_back(current);
    }
    amounts
}

fn amounts_in(e: &Env, amount_out: i128, path: &Vec<Address>) -> Vec<i128> {
    check_path(e, path);
    let n = path.len();
    let mut rev = Vec::from_array(e, [amount_out]);
    let mut current = amount_out;
    for i in (1..n).rev() {
        let (_, (rin, rout)) = reserves_for(e, &path.get_unchecked(i - 1), &path.get_unchecked(i));
        current = math::amount_in(current, rin, rout)
            .unwrap_or_else(|| panic_with_error!(e, RouterError::InsufficientLiquidity));
        rev.push_back(current);
    }
    let mut amounts = Vec::new(e);
    for i in (0..rev.len()).rev() {
        amounts.push_back(rev.get_unchecked(i));
    }
    amounts
}

/// Moves `amounts[0]` from `to` into the first pair, then swaps hop by hop, each pair paying
/// the next one and the last paying `to`.
fn execute_swap(e: &Env, amounts: &Vec<i128>, path: &Vec<Address>, to: &Address) {
    let n = path.len();
    let first = pair_of(e, &path.get_unchecked(0), &path.get_unchecked(1));
    token::Client::new(e, &path.get_unchecked(0)).transfer(to, &first, &amounts.get_unchecked(0));
    let mut pair = first;
    for i in 0..n - 1 {
        let (input, output) = (path.get_unchecked(i), path.get_unchecked(i + 1));
        let out = amounts.get_unchecked(i + 1);
        let (o0, o1) = if input < output { (0, out) } else { (out, 0) };
        let next = if i + 2 < n { pair_of(e, &output, &path.get_unchecked(i + 2)) } else { to.clone() };
        PairClient::new(e, &pair).swap(&o0, &o1, &next);
        pair = next;
    }
    events::swap(e, to, path, amounts);
}

fn pair_of(e: &Env, a: &Address, b: &Address) -> Address {
    let (t0, t1) = sort_tokens(e, a, b);
    storage::get_pair(e, &t0, &t1).unwrap_or_else(|| panic_with_error!(e, RouterError::PairNotFound))
}
