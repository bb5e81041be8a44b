//! Webhook secrets and signatures. Each delivery carries
//! `Palaver-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: the
//! timestamp is signed with the body, so a receiver that refuses old timestamps refuses a
//! replayed delivery too. The key is the secret's text as shown (its base64url characters).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::hmac;

use crate::error::{AppResult, Error};

/// A new secret: 256 random bits, base64url without padding (43 characters).
pub fn new_secret() -> AppResult<String> {
    let mut bytes = [0_u8; 32];
    getrandom::fill(&mut bytes).map_err(|err| Error::internal(format!("no randomness available: {err}")))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len()).step_by(2).map(|at| u8::from_str_radix(text.get(at..at + 2)?, 16).ok()).collect()
}

/// The `Palaver-Signature` header of `body` sent at `timestamp` (unix seconds).
pub fn signature_header(secret: &str, timestamp: u64, body: &[u8]) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    let mut context = hmac::Context::with_key(&key);
    context.update(format!("{timestamp}.").as_bytes());
    context.update(body);
    format!("t={timestamp},v1={}", hex(context.sign().as_ref()))
}

/// Why a signature was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum SignatureRefused {
    /// Not `t=<digits>,v1=<hex>`.
    Malformed,
    /// Further from `now` than the tolerance allows.
    Stale,
    /// No `v1` matches the body under the secret.
    Mismatch,
}

/// Checks a `Palaver-Signature` header as a receiver would: the timestamp within
/// `tolerance_seconds` of `now`, and a `v1` that matches (compared in constant time).
pub fn verify(
    secret: &str,
    header: &str,
    body: &[u8],
    now: u64,
    tolerance_seconds: u64,
) -> Result<(), SignatureRefused> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<u64>().ok(),
            Some(("v1", value)) => signatures.push(unhex(value).ok_or(SignatureRefused::Malformed)?),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureRefused::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureRefused::Malformed);
    }
    if now.abs_diff(timestamp) > tolerance_seconds {
        return Err(SignatureRefused::Stale);
    }
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    let signed = [format!("{timestamp}.").as_bytes(), body].concat();
    if signatures.iter().any(|signature| hmac::verify(&key, &signed, signature).is_ok()) {
        Ok(())
    } else {
        Err(SignatureRefused::Mismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_the_timestamp_and_the_body_with_hmac_sha256() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
        let header = signature_header("Jefe", 0, b"what do ya want for nothing?");
        assert_ne!(header, "", "signed");
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"Jefe");
        let expected = hex(hmac::sign(&key, b"what do ya want for nothing?").as_ref());
        assert_eq!(expected, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        // Ours signs "<t>." before the body.
        let ours = hex(hmac::sign(&key, b"0.what do ya want for nothing?").as_ref());
        assert_eq!(header, format!("t=0,v1={ours}"));
    }

    #[test]
    fn a_receiver_accepts_the_signature_and_refuses_any_change() {
        let secret = new_secret().unwrap();
        assert_eq!(secret.len(), 43);
        let body = br#"{"id":"e1","type":"ping"}"#;
        let header = signature_header(&secret, 1_700_000_000, body);
        assert_eq!(verify(&secret, &header, body, 1_700_000_010, 300), Ok(()));
        let mut changed = body.to_vec();
        changed[3] ^= 1;
        assert_eq!(verify(&secret, &header, &changed, 1_700_000_010, 300), Err(SignatureRefused::Mismatch));
        let other = new_secret().unwrap();
        assert_ne!(other, secret);
        assert_eq!(verify(&other, &header, body, 1_700_000_010, 300), Err(SignatureRefused::Mismatch));
        assert_eq!(verify(&secret, &header, body, 1_700_000_400, 300), Err(SignatureRefused::Stale));
        let later = header.replace("t=1700000000", "t=1700000001");
        assert_eq!(verify(&secret, &later, body, 1_700_000_010, 300), Err(SignatureRefused::Mismatch));
        assert_eq!(verify(&secret, "v1=00", body, 0, 300), Err(SignatureRefused::Malformed));
        assert_eq!(verify(&secret, "t=1,v1=zz", body, 1, 300), Err(SignatureRefused::Malformed));
    }
}
