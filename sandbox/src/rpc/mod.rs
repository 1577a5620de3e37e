//! The wire: HTTP transport, JSON-RPC dispatch, parameters, and the methods' answers.

pub mod cheats;
pub mod dispatch;
pub mod events;
pub mod formats;
pub mod history;
pub mod limits;
pub mod params;
pub mod transport;
