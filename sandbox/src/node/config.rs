//! Command-line configuration of the node.

use std::path::PathBuf;

pub const DEFAULT_PASSPHRASE: &str = "Standalone Network ; February 2017";

/// The order an ordinary close applies its transaction set in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApplyOrder {
    /// stellar-core's (apply_order.rs): classic then Soroban, per-account batches shuffled by
    /// the set's hash.
    Core,
    /// The order the transactions arrived in.
    Arrival,
}

/// What the queue admits from one source account (admission.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueRules {
    /// stellar-core's: one pending transaction per source account; another answers
    /// TRY_AGAIN_LATER until a ledger takes the first (a fee bump of it may replace it).
    Strict,
    /// An account may queue several transactions with consecutive sequence numbers.
    Relaxed,
}

impl QueueRules {
    pub fn name(self) -> &'static str {
        match self {
            QueueRules::Strict => "strict",
            QueueRules::Relaxed => "relaxed",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    /// Seconds between ledger closes (the schedule when not `manual`; the virtual clock's step
    /// in seed mode, at least 1 s; the network's target close time in the scp_timing setting).
    pub ledger_interval: f64,
    /// --ledger-interval was given.
    pub ledger_interval_given: bool,
    /// Close ledgers only on `sandbox_closeLedgers` (and friendbot requests).
    pub manual: bool,
    /// Deterministic mode: PRNG seeds derive from it and the clock is virtual.
    pub seed: Option<u64>,
    pub state_file: Option<PathBuf>,
    pub passphrase: String,
    /// Start time of the virtual clock (seed mode), unix seconds.
    pub start_time: Option<u64>,
    /// Ledgers kept for getEvents / getTransaction / getLedgers.
    pub retention_window: u32,
    /// Overrides testnet's state_archival.min_persistent_ttl (10 ledgers on testnet,
    /// which archives fresh entries within seconds on a 1 s ledger close).
    pub min_persistent_ttl: u32,
    pub quiet: bool,
    /// Stop (as on SIGTERM) when stdin reaches end of file: a launcher that dies takes the
    /// node with it.
    pub exit_on_stdin_close: bool,
    /// Close a ledger as soon as a transaction is accepted (anvil's automine): clients see
    /// it applied on their first getTransaction.
    pub instant: bool,
    /// LedgerSnapshot JSON file to start from.
    pub snapshot: Option<PathBuf>,
    /// Fork mode: the upstream Stellar RPC, and extra headers for its requests.
    pub fork_url: Option<String>,
    pub fork_headers: Vec<String>,
    /// --network-passphrase was given.
    pub passphrase_given: bool,
    /// Apply order of ordinary closes (friendbot's close and `order` closes keep theirs).
    pub apply_order: ApplyOrder,
    /// Answer an identical simulateTransaction against an unchanged state from the simulation
    /// memo (sim_memo.rs); off with --no-simulation-memo.
    pub simulation_memo: bool,
    /// What the queue admits from one source account (`--queue-rules`, strict by default).
    pub queue_rules: QueueRules,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8000,
            ledger_interval: 1.0,
            ledger_interval_given: false,
            manual: false,
            seed: None,
            state_file: None,
            passphrase: DEFAULT_PASSPHRASE.into(),
            start_time: None,
            retention_window: 17_280,
            min_persistent_ttl: 2_073_600,
            quiet: false,
            exit_on_stdin_close: false,
            instant: false,
            snapshot: None,
            fork_url: None,
            fork_headers: vec![],
            passphrase_given: false,
            apply_order: ApplyOrder::Core,
            simulation_memo: true,
            queue_rules: QueueRules::Strict,
        }
    }
}

impl Config {
    /// The network's target ledger close time the node writes into the scp_timing ConfigSetting
    /// (CAP-70's `ledger_target_close_time_milliseconds`), so clients read it as on a real
    /// network: the interval, unless the node is `--manual` without `--ledger-interval` (no
    /// schedule of its own: the settings file's value, testnet's 5000, stays).
    pub fn target_close_ms(&self) -> Option<u32> {
        if self.manual && !self.ledger_interval_given {
            return None;
        }
        Some(crate::base::clock::interval_ms(self.ledger_interval).min(u32::MAX as u64) as u32)
    }

    /// A node for tests: any free port, manual closing, quiet.
    #[allow(dead_code)]
    pub fn test() -> Self {
        Config { port: 0, manual: true, quiet: true, ..Config::default() }
    }

    /// The node's configuration from its command line, or why none: `-h` / `--help` asks for
    /// [`USAGE`] (printed on stdout, exit 0), anything else wrong is a [`CliError::Bad`] (exit 2).
    pub fn parse(args: &[String]) -> Result<Config, CliError> {
        let mut c = Config::default();
        let mut i = 0;
        let value = |i: &mut usize, name: &str| -> Result<String, String> {
            *i += 1;
            args.get(*i).cloned().ok_or_else(|| format!("{name} needs a value"))
        };
        while i < args.len() {
            let a = args[i].as_str();
            match a {
                "--port" => c.port = parse_num(&value(&mut i, a)?, a)?,
                "--host" => c.host = value(&mut i, a)?,
                "--ledger-interval" => {
                    let v: f64 = parse_num(&value(&mut i, a)?, a)?;
                    if !(v > 0.0 && v.is_finite()) {
                        return Err("--ledger-interval must be a positive number of seconds".into());
                    }
                    c.ledger_interval = v;
                    c.ledger_interval_given = true;
                }
                "--manual" => c.manual = true,
                "--seed" => c.seed = Some(parse_num(&value(&mut i, a)?, a)?),
                "--state" => c.state_file = Some(PathBuf::from(value(&mut i, a)?)),
                "--network-passphrase" => {
                    c.passphrase = value(&mut i, a)?;
                    c.passphrase_given = true;
                }
                "--snapshot" => c.snapshot = Some(PathBuf::from(value(&mut i, a)?)),
                "--fork-url" => c.fork_url = Some(value(&mut i, a)?),
                "--fork-header" => c.fork_headers.push(value(&mut i, a)?),
                "--start-time" => c.start_time = Some(parse_num(&value(&mut i, a)?, a)?),
                "--retention-window" => c.retention_window = parse_num(&value(&mut i, a)?, a)?,
                "--min-persistent-ttl" => c.min_persistent_ttl = parse_num(&value(&mut i, a)?, a)?,
                "--quiet" => c.quiet = true,
                "--exit-on-stdin-close" => c.exit_on_stdin_close = true,
                "--instant" => c.instant = true,
                "--no-simulation-memo" => c.simulation_memo = false,
                "--apply-order" => {
                    c.apply_order = match value(&mut i, a)?.as_str() {
                        "core" => ApplyOrder::Core,
                        "arrival" => ApplyOrder::Arrival,
                        other => return Err(format!("--apply-order: {other} is not core or arrival").into()),
                    }
                }
                "--queue-rules" => {
                    c.queue_rules = match value(&mut i, a)?.as_str() {
                        "strict" => QueueRules::Strict,
                        "relaxed" => QueueRules::Relaxed,
                        other => return Err(format!("--queue-rules: {other} is not strict or relaxed").into()),
                    }
                }
                "--help" | "-h" => return Err(CliError::Help),
                other => return Err(format!("unknown argument {other} (--help lists the options)").into()),
            }
            i += 1;
        }
        if c.snapshot.is_some() && c.fork_url.is_some() {
            return Err("--snapshot and --fork-url both say where the node starts: give one".into());
        }
        if !c.fork_headers.is_empty() && c.fork_url.is_none() {
            return Err("--fork-header needs --fork-url".into());
        }
        Ok(c)
    }
}

fn parse_num<T: std::str::FromStr>(s: &str, name: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("{name}: not a valid number: {s}"))
}

/// Why a command line starts no node.
#[derive(Debug, PartialEq)]
pub enum CliError {
    /// `-h` or `--help`: print [`USAGE`] and exit 0.
    Help,
    /// A bad argument: print the message and exit 2.
    Bad(String),
}

impl From<String> for CliError {
    fn from(message: String) -> Self {
        CliError::Bad(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> Self {
        CliError::Bad(message.to_string())
    }
}

/// The node's usage. Its options block is the one `npm run sandbox -- --help` prints
/// (scripts/sandbox.sh), which a test keeps identical.
pub const USAGE: &str = r#"usage: sandbox [options]

A Stellar-RPC-compatible node on the real Soroban engine (sandbox/README.md). It prints
`sandbox ready <rpc-url>` once it answers; Ctrl-C stops it.

options:
  --port N                      RPC port, 0 = any free one (default 8000)
  --host H                      address to bind (default 127.0.0.1)
  --ledger-interval SECONDS     seconds per ledger (default 1; with --manual: none)
  --manual                      close ledgers only on sandbox_closeLedgers (default: on a timer)
  --instant                     close a ledger as soon as a transaction is accepted (default: off)
  --seed S                      seeded PRNGs and a virtual clock (default: none, wall-clock time)
  --state FILE                  load the state from FILE when it exists, write it on exit
                                (default: in memory only)
  --network-passphrase P        (default "Standalone Network ; February 2017"; a snapshot's or
                                fork's own network when started from one)
  --start-time UNIX             with --seed: where the virtual clock starts
                                (default 2026-01-01T00:00:00Z)
  --retention-window N          ledgers of history kept (default 17280)
  --min-persistent-ttl N        least TTL of persistent entries, ledgers (default 2073600)
  --apply-order core|arrival    order a close applies its transactions in (default core)
  --queue-rules strict|relaxed  what the queue admits from one source (default strict)
  --no-simulation-memo          turn off the simulation memo (default: on)
  --exit-on-stdin-close         stop when stdin closes (default: off)
  --quiet                       fewer log lines (default: off)
  --snapshot FILE               start from a LedgerSnapshot file (default: an empty network)
  --fork-url URL                fork a live RPC lazily (default: none)
  --fork-header 'Name: value'   an HTTP header for the fork's upstream (repeatable; default none)
  -h, --help                    this text

example:
  target/sandbox/sandbox --port 8000 --ledger-interval 5 --seed 7 --state target/sandbox-state.json"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_all_flags() {
        let c = Config::parse(&args("--port 0 --ledger-interval 0.25 --manual --seed 7 --state s.json")).unwrap();
        assert_eq!(c.port, 0);
        assert_eq!(c.ledger_interval, 0.25);
        assert_eq!(c.target_close_ms(), Some(250));
        assert!(c.manual);
        assert_eq!(c.seed, Some(7));
        assert_eq!(c.state_file.unwrap().to_str(), Some("s.json"));
        assert_eq!(c.passphrase, DEFAULT_PASSPHRASE);
        assert_eq!(c.apply_order, ApplyOrder::Core);
        assert!(c.simulation_memo);
        assert_eq!(Config::parse(&args("--manual")).unwrap().target_close_ms(), None, "the settings file's value");
        assert_eq!(Config::parse(&args("")).unwrap().target_close_ms(), Some(1000));
        assert_eq!(Config::parse(&args("--ledger-interval 2.5")).unwrap().target_close_ms(), Some(2500));
        assert!(!Config::parse(&args("--no-simulation-memo")).unwrap().simulation_memo);
        assert_eq!(Config::parse(&args("--apply-order arrival")).unwrap().apply_order, ApplyOrder::Arrival);
        assert_eq!(Config::parse(&args("--apply-order core")).unwrap().apply_order, ApplyOrder::Core);
        assert_eq!(c.queue_rules, QueueRules::Strict);
        assert_eq!(Config::parse(&args("--queue-rules relaxed")).unwrap().queue_rules, QueueRules::Relaxed);
        assert_eq!(Config::parse(&args("--queue-rules strict")).unwrap().queue_rules, QueueRules::Strict);
    }

    #[test]
    fn help_is_not_an_error_of_the_arguments() {
        for a in ["--help", "-h", "--port 0 --help", "--manual -h --bogus"] {
            assert_eq!(Config::parse(&args(a)).unwrap_err(), CliError::Help, "{a}");
        }
        let Err(CliError::Bad(m)) = Config::parse(&args("--bogus")) else { panic!("--bogus accepted") };
        assert_eq!(m, "unknown argument --bogus (--help lists the options)");
    }

    /// The `options:` block of a usage text: from the line after `options:` to the blank line.
    fn options_block(text: &str) -> String {
        let start = text.find("\noptions:\n").expect("an options: line") + "\noptions:\n".len();
        let rest = &text[start..];
        rest[..rest.find("\n\n").expect("a blank line after the options")].to_string()
    }

    #[test]
    fn usage_names_every_flag_and_matches_npm_run_sandbox_help() {
        let block = options_block(USAGE);
        let source = include_str!("config.rs");
        let arms: Vec<&str> = source
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix('"'))
            .filter_map(|l| l.split_once('"').filter(|(_, rest)| rest.trim_start().starts_with("=>") || rest.starts_with(" | \"-h\" =>")))
            .map(|(flag, _)| flag)
            .filter(|f| f.starts_with("--"))
            .collect();
        assert!(arms.len() >= 20, "flags found in the parser: {arms:?}");
        for flag in &arms {
            assert!(block.contains(&format!("  {flag} ")) || block.contains(&format!(", {flag} ")), "{flag} is not in the usage");
        }
        for word in block.split_whitespace().filter(|w| w.starts_with("--") && w.len() > 2) {
            let flag = word.trim_end_matches(|c: char| !c.is_ascii_alphabetic());
            assert!(arms.contains(&flag), "the usage names {flag}, which the parser does not take");
        }
        let script = include_str!("../../../scripts/sandbox.sh");
        assert_eq!(block, options_block(script), "the options of npm run sandbox -- --help (scripts/sandbox.sh)");
    }

    #[test]
    fn rejects_bad_input() {
        assert!(Config::parse(&args("--ledger-interval 0")).is_err());
        assert!(Config::parse(&args("--port x")).is_err());
        assert!(Config::parse(&args("--bogus")).is_err());
        assert!(Config::parse(&args("--seed")).is_err());
        assert!(Config::parse(&args("--snapshot s.json --fork-url http://x")).is_err());
        assert!(Config::parse(&args("--fork-header a:b")).is_err());
        assert!(Config::parse(&args("--apply-order random")).is_err());
        assert!(Config::parse(&args("--apply-order")).is_err());
        assert!(Config::parse(&args("--queue-rules loose")).is_err());
        assert!(Config::parse(&args("--queue-rules")).is_err());
    }
}
