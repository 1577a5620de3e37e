//! The parsed-Wasm module cache apply runs with, as stellar-core keeps one: simulation
//! assumes a cache hit for stored contracts, so apply must not pay for parsing either.

use crate::base::protocol::PROTOCOL_VERSION;
use soroban_env_host::budget::{AsBudget, Budget};
use soroban_env_host::{CompilationContext, Error, ErrorHandler, HostError, ModuleCache, Val};

/// Compilation happens outside any transaction, on an unlimited budget.
#[derive(Clone)]
struct CompileCtx(Budget);

impl CompileCtx {
    fn new() -> Self {
        let b = Budget::default();
        let _ = b.reset_unlimited();
        CompileCtx(b)
    }
}

impl ErrorHandler for CompileCtx {
    fn map_err<T, E>(&self, res: Result<T, E>) -> Result<T, HostError>
    where
        Error: From<E>,
        E: std::fmt::Debug,
    {
        res.map_err(HostError::from)
    }
    fn error(&self, error: Error, _msg: &str, _args: &[Val]) -> HostError {
        HostError::from(error)
    }
}

impl AsBudget for CompileCtx {
    fn as_budget(&self) -> &Budget {
        &self.0
    }
}

impl CompilationContext for CompileCtx {}

pub fn new_cache() -> ModuleCache {
    ModuleCache::new(&CompileCtx::new()).expect("module cache builds")
}

/// Adds modules; a Wasm the host cannot parse is skipped (its calls fail as on the network).
pub fn add(cache: &ModuleCache, codes: &[Vec<u8>]) {
    let ctx = CompileCtx::new();
    for code in codes {
        let _ = cache.parse_and_cache_module_simple(&ctx, PROTOCOL_VERSION, code);
    }
}

