//! The deployment's VAPID key pair (RFC 8292): one ECDSA P-256 key, made at first start and kept
//! in the database so every instance signs with the same, and the `Authorization` header a push
//! request carries. The header is a JWT (ES256) signed with ring, already built for TLS:
//! web-push-native's own VAPID support drops the endpoint's port from the audience (RFC 8292
//! wants the origin) and pulls in a JWT crate with RSA and post-quantum signatures besides.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use serde_json::json;

use crate::error::{AppResult, Error};

/// How long a signed request stays valid (RFC 8292 allows at most 24 hours).
const VALID_SECONDS: u64 = 12 * 60 * 60;

/// The key pair push requests are signed with.
pub struct VapidKeys {
    pair: EcdsaKeyPair,
    /// The public key as `GET /push/key` serves it: the uncompressed point, base64url.
    public_key: String,
}

impl fmt::Debug for VapidKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VapidKeys").field("public_key", &self.public_key).finish_non_exhaustive()
    }
}

impl VapidKeys {
    /// A new private key, as a PKCS#8 document in base64url (how the database keeps it).
    pub fn generate() -> AppResult<String> {
        let document = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
            .map_err(|err| Error::internal(format!("the system's random source failed: {err}")))?;
        Ok(URL_SAFE_NO_PAD.encode(document.as_ref()))
    }

    /// The key pair of a PKCS#8 document in base64url.
    pub fn from_text(text: &str) -> AppResult<Self> {
        let document = URL_SAFE_NO_PAD.decode(text).map_err(|err| Error::internal(err))?;
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &document, &SystemRandom::new())
            .map_err(|err| Error::internal(format!("the VAPID key is not a P-256 PKCS#8 document: {err}")))?;
        let public_key = URL_SAFE_NO_PAD.encode(pair.public_key().as_ref());
        Ok(Self { pair, public_key })
    }

    pub fn public_key(&self) -> &str {
        &self.public_key
    }

    /// `vapid t=<JWT>, k=<public key>` for a push to `endpoint`, signed at `now` (Unix seconds):
    /// the audience is the endpoint's origin, the subject `contact`.
    pub fn authorization(&self, endpoint: &url::Url, contact: &str, now: u64) -> AppResult<String> {
        let audience = endpoint.origin().ascii_serialization();
        let header = json!({"typ": "JWT", "alg": "ES256"});
        let claims = json!({"aud": audience, "exp": now + VALID_SECONDS, "sub": contact});
        let signed =
            format!("{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), URL_SAFE_NO_PAD.encode(claims.to_string()));
        let signature = self
            .pair
            .sign(&SystemRandom::new(), signed.as_bytes())
            .map_err(|err| Error::internal(format!("could not sign a push request: {err}")))?;
        Ok(format!("vapid t={signed}.{}, k={}", URL_SAFE_NO_PAD.encode(signature.as_ref()), self.public_key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};

    #[test]
    fn the_header_is_a_jwt_for_the_endpoints_origin_signed_by_the_served_key() {
        let keys = VapidKeys::from_text(&VapidKeys::generate().unwrap()).unwrap();
        let endpoint = url::Url::parse("http://127.0.0.1:4567/push/abc").unwrap();
        let header = keys.authorization(&endpoint, "mailto:ops@example.org", 1_000).unwrap();
        let (token, key) = header.strip_prefix("vapid t=").unwrap().split_once(", k=").unwrap();
        assert_eq!(key, keys.public_key());
        let public = URL_SAFE_NO_PAD.decode(key).unwrap();
        assert_eq!((public.len(), public[0]), (65, 4), "an uncompressed P-256 point");
        let (signed, signature) = token.rsplit_once('.').unwrap();
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(signed.split_once('.').unwrap().1).unwrap()).unwrap();
        assert_eq!(
            claims,
            json!({"aud": "http://127.0.0.1:4567", "exp": 1_000 + VALID_SECONDS, "sub": "mailto:ops@example.org"})
        );
        let verifier = UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, &public);
        assert!(verifier.verify(signed.as_bytes(), &URL_SAFE_NO_PAD.decode(signature).unwrap()).is_ok());
        assert!(verifier.verify(b"something else", &URL_SAFE_NO_PAD.decode(signature).unwrap()).is_err());
    }
}
