//! A single-process local Stellar-RPC-compatible Soroban network node on the real execution
//! engine (soroban-env-host for apply, soroban-simulation for preflight).

mod apply;
mod apply_order;
mod cheats;
mod classic;
mod classic_events;
mod clock;
mod config;
mod errors;
mod event_log;
mod events;
mod fees;
mod feestats;
mod fork;
mod fork_start;
mod friendbot;
mod history;
mod limits;
mod modules;
mod network;
mod node;
mod overlay;
mod params;
mod queue;
mod records;
mod replace_by_fee;
mod rpc;
mod sim_memo;
mod simulate;
mod snapshot;
mod soroban;
mod state;
mod store;
mod transport;
mod tx;
mod txset;
mod upstream;
mod xdrjson;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod classic_events_tests;
#[cfg(test)]
mod close_tests;
#[cfg(test)]
mod fork_tests;
#[cfg(test)]
mod sim_memo_tests;
#[cfg(test)]
mod snapshot_tests;

use std::sync::{Arc, Mutex};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cfg = match config::Config::parse(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(cfg) {
        eprintln!("sandbox: {e}");
        std::process::exit(1);
    }
}

fn run(mut cfg: config::Config) -> Result<(), String> {
    let upstream = fork_start::connect(&mut cfg)?;
    let mut node = node::Node::new(cfg.clone())?;
    if let Some(up) = upstream {
        let url = up.url.clone();
        let seq = fork_start::attach(&mut node, up)?;
        if !cfg.quiet {
            eprintln!("sandbox: forked {url} at ledger {seq} ({})", cfg.passphrase);
        }
    }
    if let Some(path) = &cfg.snapshot {
        let (seq, n) = snapshot::load_file(&mut node, path)?;
        if !cfg.quiet {
            eprintln!("sandbox: loaded snapshot {} ({n} entries) at ledger {seq}", path.display());
        }
    }
    if let Some(path) = &cfg.state_file {
        if path.exists() {
            let seq = state::read_file(&mut node, path)?;
            if !cfg.quiet {
                eprintln!("sandbox: loaded state from {} at ledger {seq}", path.display());
            }
        }
    }
    let (server, port) = transport::bind(&cfg.host, cfg.port)?;
    let base_url = format!("http://{}:{port}", cfg.host);
    let ctx = Arc::new(rpc::Ctx { node: Mutex::new(node), base_url: base_url.clone() });
    let _acceptor = transport::serve(server, ctx.clone());

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
        state::write_file(&node, path, true)?;
        if !cfg.quiet {
            eprintln!("sandbox: state written to {}", path.display());
        }
    }
    std::process::exit(0);
}
