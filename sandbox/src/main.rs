//! A single-process local Stellar-RPC-compatible Soroban network node on the real execution
//! engine (soroban-env-host for apply, soroban-simulation for preflight).

mod apply;
mod base;
mod history;
mod ledger;
mod node;
mod rpc;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cfg = match node::config::Config::parse(&args) {
        Ok(c) => c,
        Err(node::config::CliError::Help) => {
            println!("{}", node::config::USAGE);
            return;
        }
        Err(node::config::CliError::Bad(e)) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(cfg) {
        eprintln!("sandbox: {e}");
        std::process::exit(1);
    }
}

fn run(mut cfg: node::config::Config) -> Result<(), String> {
    let upstream = node::fork_start::connect(&mut cfg)?;
    // A snapshot is read before the node starts: without --network-passphrase the node runs the
    // public network its network_id names.
    let snapshot = match &cfg.snapshot {
        Some(path) => Some(node::snapshot::read_file(path)?),
        None => None,
    };
    if let Some(snap) = &snapshot {
        node::snapshot::adopt_network(&mut cfg, snap);
    }
    let mut node = node::core::Node::new(cfg.clone())?;
    if let Some(up) = upstream {
        let url = up.url.clone();
        let seq = node::fork_start::attach(&mut node, up)?;
        if !cfg.quiet {
            eprintln!("sandbox: forked {url} at ledger {seq} ({})", cfg.passphrase);
        }
    }
    if let (Some(path), Some(snap)) = (&cfg.snapshot, &snapshot) {
        let (seq, n) = node::snapshot::load(&mut node, snap).map_err(|e| format!("{}: {e}", path.display()))?;
        if !cfg.quiet {
            eprintln!("sandbox: loaded snapshot {} ({n} entries) at ledger {seq}", path.display());
        }
    }
    if let Some(path) = &cfg.state_file {
        if path.exists() {
            let seq = node::state::read_file(&mut node, path)?;
            if !cfg.quiet {
                eprintln!("sandbox: loaded state from {} at ledger {seq}", path.display());
            }
        }
    }
    let (server, port) = rpc::transport::bind(&cfg.host, cfg.port)?;
    let base_url = format!("http://{}:{port}", cfg.host);
    let ctx = Arc::new(rpc::dispatch::Ctx::new(node, base_url.clone()));
    let _acceptor = rpc::transport::serve(server, ctx.clone());

    if !cfg.manual {
        let ctx = ctx.clone();
        let interval = Duration::from_secs_f64(cfg.ledger_interval);
        std::thread::spawn(move || loop {
            std::thread::sleep(interval);
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ctx.lock().close_ledger()));
        });
    }

    let (tx, rx) = std::sync::mpsc::channel();
    let on_signal = tx.clone();
    ctrlc::set_handler(move || {
        let _ = on_signal.send(());
    })
    .map_err(|e| format!("cannot install signal handler: {e}"))?;
    if cfg.exit_on_stdin_close {
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
            let _ = tx.send(());
        });
    }

    println!("sandbox ready {base_url}/rpc");
    use std::io::Write;
    let _ = std::io::stdout().flush();

    let _ = rx.recv();
    let node = ctx.lock();
    if let Some(path) = &cfg.state_file {
        node::state::write_file(&node, path, true)?;
        if !cfg.quiet {
            eprintln!("sandbox: state written to {}", path.display());
        }
    }
    std::process::exit(0);
}
