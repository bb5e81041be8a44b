//! The Agent UI Asks contract and the display-block contract: pure data and rules, no I/O,
//! no Leptos, no async runtime, no database. The server, the browser and the CLI all run
//! these same validators, so a card enables Submit exactly when the server would accept.
//! The HTML block sanitizer (ammonia) is behind the `sanitize` feature the server enables.
//! Beside them, the readers of what crosses the wire untrusted that need nothing but bytes: the
//! event-stream framing (`sse`), the turn bodies (`turn_body`) and the upload form's rules
//! (`upload`), so the fuzz targets in `fuzz/` reach every reader without the server.
//! And `visible`: how a decision card shows text so that no character in it can hide or reorder
//! what it says.

/// An error-code enum: its codes with their meanings (`ALL`, `as_str`, `meaning`, `Display`).
/// A code travels as its name (serialized by hand: in the browser's wasm this is far smaller
/// than serde's derive, which matches every name twice for every deserializer).
macro_rules! code_enum {
    ($(#[$attr:meta])* $name:ident { $($code:ident => $meaning:literal,)* }) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub enum $name {
            $($code,)*
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$code,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$code => stringify!($code),)*
                }
            }

            /// The code's description (the reference's code table).
            pub fn meaning(self) -> &'static str {
                match self {
                    $($name::$code => $meaning,)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let code = String::deserialize(deserializer)?;
                Self::ALL
                    .iter()
                    .copied()
                    .find(|known| known.as_str() == code)
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown code {code}")))
            }
        }
    };
}

pub mod asks;
pub mod blocks;
pub mod locale;
pub mod path;
pub mod site_path;
pub mod sse;
pub mod text;
pub mod turn_body;
pub mod upload;
pub mod visible;
