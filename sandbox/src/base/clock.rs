//! Ledger close time: wall time plus an offset moved by the time cheats, or, in seed mode, a
//! virtual clock that advances by the ledger interval on each close.

use std::time::{SystemTime, UNIX_EPOCH};

/// Virtual clock start in seed mode when --start-time is absent (2026-01-01T00:00:00Z).
pub const DEFAULT_VIRTUAL_START: u64 = 1_767_225_600;

#[derive(Clone, Debug)]
pub struct Clock {
    /// Seconds added to wall time (time travel).
    offset: i64,
    /// Seed mode: the time the next ledger closes at, unless moved.
    virtual_next: Option<u64>,
    step: u64,
}

pub fn wall_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

impl Clock {
    pub fn new(virtual_start: Option<u64>, interval: f64) -> Self {
        Clock { offset: 0, virtual_next: virtual_start, step: (interval.round() as u64).max(1) }
    }

    /// What "now" is for validity checks of incoming transactions.
    pub fn now(&self, last_close: u64) -> u64 {
        match self.virtual_next {
            Some(t) => t.max(last_close),
            None => ((wall_secs() as i64 + self.offset).max(0) as u64).max(last_close),
        }
    }

    /// Close time of the next ledger; never earlier than the last one.
    pub fn next_close(&mut self, last_close: u64) -> u64 {
        let t = self.now(last_close);
        if let Some(v) = self.virtual_next.as_mut() {
            *v = t + self.step;
        }
        t
    }

    /// Goes on from a ledger closed at `close_time` (a loaded snapshot, a fork): the next
    /// close comes one interval later, on a virtual clock and on the wall clock alike.
    pub fn continue_from(&mut self, close_time: u64) {
        let next = close_time + self.step;
        match self.virtual_next.as_mut() {
            Some(v) => *v = next,
            None => self.offset = next as i64 - wall_secs() as i64,
        }
    }

    pub fn advance(&mut self, seconds: u64) {
        match self.virtual_next.as_mut() {
            Some(v) => *v += seconds,
            None => self.offset += seconds as i64,
        }
    }

    /// The clock's moved parts, for state files: the time-travel offset and, in seed mode, the
    /// next close time.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "offset": self.offset, "virtualNext": self.virtual_next })
    }

    /// Restores what `to_json` wrote. A node in seed mode keeps its virtual clock (from the file
    /// when it has one); a wall-clock node keeps the offset. The step is this node's interval.
    pub fn restore(&mut self, v: &serde_json::Value) -> Result<(), String> {
        self.offset = v["offset"].as_i64().ok_or("state: clock.offset is not an integer")?;
        if let (Some(next), Some(mine)) = (v["virtualNext"].as_u64(), self.virtual_next.as_mut()) {
            *mine = next;
        }
        Ok(())
    }

    /// Makes the next ledger close at `t` (later ledgers continue from there).
    pub fn set(&mut self, t: u64) {
        match self.virtual_next.as_mut() {
            Some(v) => *v = t,
            None => self.offset = t as i64 - wall_secs() as i64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_clock_is_deterministic_and_monotonic() {
        let mut c = Clock::new(Some(1000), 1.0);
        assert_eq!(c.next_close(0), 1000);
        assert_eq!(c.next_close(1000), 1001);
        c.advance(60);
        assert_eq!(c.next_close(1001), 1062);
        c.set(500);
        assert_eq!(c.next_close(1062), 1062, "never goes back");
    }

    #[test]
    fn survives_a_state_file() {
        let mut c = Clock::new(Some(1000), 1.0);
        c.advance(500);
        let mut d = Clock::new(Some(1000), 1.0);
        d.restore(&c.to_json()).unwrap();
        assert_eq!(d.now(0), 1500);
        let mut w = Clock::new(None, 1.0);
        w.advance(3600);
        let mut w2 = Clock::new(None, 1.0);
        w2.restore(&w.to_json()).unwrap();
        assert!(w2.now(0) >= wall_secs() + 3599);
        assert!(w2.restore(&serde_json::json!({})).is_err());
    }

    #[test]
    fn wall_clock_follows_offset() {
        let mut c = Clock::new(None, 1.0);
        let t0 = c.now(0);
        c.advance(3600);
        assert!(c.now(0) >= t0 + 3600);
    }
}
