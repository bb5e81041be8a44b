//! The ask and block fixtures, embedded at build time from the contract's fixture folders.

include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
