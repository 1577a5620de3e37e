//! The leaf every layer may import: record types, protocol constants, encodings, the clock
//! value and the error types. It imports nothing of the crate.

pub mod clock;
pub mod codec;
pub mod errors;
pub mod protocol;
pub mod records;
pub mod xdrjson;
