//! The retained history: the event log, fee statistics, TOIDs, and the history's JSON form in
//! state files.

pub mod event_log;
pub mod feestats;
pub mod records;
pub mod toid;
