//! The integration tests of palaver-contract, one binary: the reference fixtures, the ask and
//! block readers under property tests, the JSON Schemas, and the docs kept in step with the spec.

// The tests' helpers unwrap as the tests do: a panic is how a test fails.
#![allow(clippy::unwrap_used)]

mod ask_answers;
mod ask_fixtures;
mod ask_inputs;
mod ask_robustness;
mod block_fixtures;
mod doc_parity;
mod json_schemas;
