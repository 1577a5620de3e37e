//! Ledger close time: wall time plus an offset moved by the time cheats, or, in seed mode, a
//! virtual clock that advances by the ledger interval on each close.
//!
//! The virtual clock keeps milliseconds; a header's close time is whole unix seconds
//! (`TimePoint`), so each close takes the floor of the clock. A 2.5 s interval closes at
//! +2, +3, +2, +3 s, as 2.5 s ledgers do on the real network (CAP-70). stellar-core accepts a
//! close time only when it is later than the last one (`HerderSCPDriver::checkCloseTime`:
//! `b.closeTime <= lastCloseTime` is rejected), so the virtual clock never steps less than
//! 1 s per close: a shorter interval is clamped to 1 s of ledger time (the wall-clock
//! schedule between closes stays the interval).

use std::time::{SystemTime, UNIX_EPOCH};

/// Virtual clock start in seed mode when --start-time is absent (2026-01-01T00:00:00Z).
pub const DEFAULT_VIRTUAL_START: u64 = 1_767_225_600;

/// The least the virtual clock moves per close: close times are whole seconds and must
/// strictly increase.
pub const MIN_VIRTUAL_STEP_MS: u64 = 1_000;

#[derive(Clone, Debug)]
pub struct Clock {
    /// Seconds added to wall time (time travel).
    offset: i64,
    /// Seed mode: the time the next ledger closes at (unix milliseconds), unless moved.
    virtual_next_ms: Option<u64>,
    /// Ledger time per close in milliseconds (at least MIN_VIRTUAL_STEP_MS).
    step_ms: u64,
}

pub fn wall_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// A ledger interval in seconds as whole milliseconds (never 0).
pub fn interval_ms(interval: f64) -> u64 {
    ((interval * 1000.0).round() as u64).max(1)
}

impl Clock {
    pub fn new(virtual_start: Option<u64>, interval: f64) -> Self {
        Clock {
            offset: 0,
            virtual_next_ms: virtual_start.map(|s| s * 1000),
            step_ms: interval_ms(interval).max(MIN_VIRTUAL_STEP_MS),
        }
    }

    /// What "now" is for validity checks of incoming transactions.
    pub fn now(&self, last_close: u64) -> u64 {
        match self.virtual_next_ms {
            Some(ms) => (ms / 1000).max(last_close),
            None => ((wall_secs() as i64 + self.offset).max(0) as u64).max(last_close),
        }
    }

    /// Close time of the next ledger; never earlier than the last one. On the virtual clock it
    /// is strictly later (stellar-core's rule); the wall clock repeats a second when ledgers
    /// close faster than once a second.
    pub fn next_close(&mut self, last_close: u64) -> u64 {
        match self.virtual_next_ms.as_mut() {
            Some(ms) => {
                let floor = last_close + 1;
                let t = (*ms / 1000).max(if last_close == 0 { 0 } else { floor });
                // A clock set behind the last close goes on from the close it had to take.
                *ms = (*ms).max(t * 1000) + self.step_ms;
                t
            }
            None => self.now(last_close),
        }
    }

    /// Goes on from a ledger closed at `close_time` (a loaded snapshot, a fork): the next
    /// close comes one interval later, on a virtual clock and on the wall clock alike.
    pub fn continue_from(&mut self, close_time: u64) {
        let next_ms = close_time * 1000 + self.step_ms;
        match self.virtual_next_ms.as_mut() {
            Some(v) => *v = next_ms,
            None => self.offset = next_ms.div_ceil(1000) as i64 - wall_secs() as i64,
        }
    }

    pub fn advance(&mut self, seconds: u64) {
        match self.virtual_next_ms.as_mut() {
            Some(v) => *v += seconds * 1000,
            None => self.offset += seconds as i64,
        }
    }

    /// The clock's moved parts, for state files: the time-travel offset and, in seed mode, the
    /// next close time (whole seconds in `virtualNext`, as older files have it, and
    /// milliseconds in `virtualNextMs`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "offset": self.offset,
            "virtualNext": self.virtual_next_ms.map(|ms| ms / 1000),
            "virtualNextMs": self.virtual_next_ms,
        })
    }

    /// Restores what `to_json` wrote. A node in seed mode keeps its virtual clock (from the file
    /// when it has one); a wall-clock node keeps the offset. The step is this node's interval.
    pub fn restore(&mut self, v: &serde_json::Value) -> Result<(), String> {
        self.offset = v["offset"].as_i64().ok_or("state: clock.offset is not an integer")?;
        let next = v["virtualNextMs"].as_u64().or(v["virtualNext"].as_u64().map(|s| s * 1000));
        if let (Some(next), Some(mine)) = (next, self.virtual_next_ms.as_mut()) {
            *mine = next;
        }
        Ok(())
    }

    /// Makes the next ledger close at `t` (later ledgers continue from there).
    pub fn set(&mut self, t: u64) {
        match self.virtual_next_ms.as_mut() {
            Some(v) => *v = t * 1000,
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
        assert_eq!(c.next_close(1062), 1063, "never goes back, never repeats a close time");
        assert_eq!(c.next_close(1063), 1064, "goes on from the close it took");
    }

    #[test]
    fn fractional_interval_floors_to_whole_seconds() {
        let mut c = Clock::new(Some(1000), 2.5);
        let mut last = 0;
        let mut times = vec![];
        for _ in 0..5 {
            last = c.next_close(last);
            times.push(last);
        }
        assert_eq!(times, vec![1000, 1002, 1005, 1007, 1010]);
        assert_eq!(c.now(last), 1012, "the next close, floored");
    }

    #[test]
    fn sub_second_interval_is_clamped_to_one_second() {
        let mut c = Clock::new(Some(1000), 0.25);
        assert_eq!(c.next_close(0), 1000);
        assert_eq!(c.next_close(1000), 1001);
        assert_eq!(c.next_close(1001), 1002);
    }

    #[test]
    fn survives_a_state_file() {
        let mut c = Clock::new(Some(1000), 2.5);
        c.next_close(0);
        c.advance(500);
        let mut d = Clock::new(Some(1000), 2.5);
        d.restore(&c.to_json()).unwrap();
        assert_eq!(d.now(0), 1502);
        assert_eq!(d.next_close(1000), 1502);
        assert_eq!(d.next_close(1502), 1505, "the half second survives the file");
        let mut old = Clock::new(Some(1000), 1.0);
        old.restore(&serde_json::json!({ "offset": 0, "virtualNext": 4242 })).unwrap();
        assert_eq!(old.now(0), 4242, "files with whole seconds only still load");
        let mut w = Clock::new(None, 1.0);
        w.advance(3600);
        let mut w2 = Clock::new(None, 1.0);
        w2.restore(&w.to_json()).unwrap();
        assert!(w2.now(0) >= wall_secs() + 3599);
        assert!(w2.restore(&serde_json::json!({})).is_err());
    }

    #[test]
    fn continues_one_interval_after_a_close() {
        let mut c = Clock::new(Some(1000), 2.5);
        c.continue_from(2000);
        assert_eq!(c.next_close(2000), 2002);
        assert_eq!(c.next_close(2002), 2005);
    }

    #[test]
    fn wall_clock_follows_offset() {
        let mut c = Clock::new(None, 1.0);
        let t0 = c.now(0);
        c.advance(3600);
        assert!(c.now(0) >= t0 + 3600);
    }
}
