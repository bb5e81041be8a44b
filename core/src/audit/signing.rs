//! The key an instance signs its audit chains' heads with (Ed25519), and the check of a
//! signature. The key is `PALAVER_AUDIT_KEY` (a PKCS#8 document, base64url) when set — give
//! every instance the same one — else made at first start in the data folder
//! (`audit-signing-key`, readable by its owner only). A signature binds a chain's owner, a
//! position and the hash there.

use std::io::Write;
use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};

const KEY_FILE: &str = "audit-signing-key";

/// This instance's signing key.
pub struct AuditKey {
    pair: Ed25519KeyPair,
    public_key: String,
}

impl std::fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditKey").field("public_key", &self.public_key).finish_non_exhaustive()
    }
}

fn message(chain_owner: &str, seq: i64, hash: &str) -> Vec<u8> {
    format!("palaver audit head\n{chain_owner}\n{seq}\n{hash}").into_bytes()
}

impl AuditKey {
    /// A key from its PKCS#8 document, base64url (as `PALAVER_AUDIT_KEY` holds it).
    pub fn from_text(text: &str) -> Result<Self, String> {
        let document =
            URL_SAFE_NO_PAD.decode(text.trim()).map_err(|err| format!("The audit key is not base64url: {err}."))?;
        let pair = Ed25519KeyPair::from_pkcs8(&document)
            .map_err(|err| format!("The audit key is not an Ed25519 PKCS#8 document: {err}."))?;
        let public_key = URL_SAFE_NO_PAD.encode(pair.public_key().as_ref());
        Ok(Self { pair, public_key })
    }

    /// `configured` (`PALAVER_AUDIT_KEY`) when set, else the key kept in `data_dir`, made there
    /// the first time.
    pub fn load(configured: Option<&str>, data_dir: &Path) -> Result<Self, String> {
        if let Some(text) = configured {
            return Self::from_text(text);
        }
        let path = data_dir.join(KEY_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => Self::from_text(&text).map_err(|err| format!("{}: {err}", path.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Self::create(&path),
            Err(err) => Err(format!("Cannot read the audit key {}: {err}.", path.display())),
        }
    }

    fn create(path: &Path) -> Result<Self, String> {
        let document = Ed25519KeyPair::generate_pkcs8(&ring::rand::SystemRandom::new())
            .map_err(|err| format!("Cannot make an audit key: the system's random source failed ({err})."))?;
        let text = URL_SAFE_NO_PAD.encode(document.as_ref());
        let written = std::fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).and_then(|()| {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            options.open(path)?.write_all(text.as_bytes())
        });
        match written {
            Ok(()) => Self::from_text(&text),
            // Another process made it first: use theirs.
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                Self::load(None, path.parent().unwrap_or(Path::new(".")))
            }
            Err(err) => Err(format!("Cannot keep the audit key in {}: {err}.", path.display())),
        }
    }

    /// The public half, base64url: what a check trusts.
    pub fn public_key(&self) -> &str {
        &self.public_key
    }

    /// The signature (base64url) of `chain_owner`'s head at `seq`, whose hash is `hash`.
    pub fn sign(&self, chain_owner: &str, seq: i64, hash: &str) -> String {
        URL_SAFE_NO_PAD.encode(self.pair.sign(&message(chain_owner, seq, hash)).as_ref())
    }
}

/// Whether `signature` is `public_key`'s valid signature of `chain_owner`'s head at `seq` with `hash`.
pub fn signature_holds(public_key: &str, signature: &str, chain_owner: &str, seq: i64, hash: &str) -> bool {
    let (Ok(public_key), Ok(signature)) = (URL_SAFE_NO_PAD.decode(public_key), URL_SAFE_NO_PAD.decode(signature))
    else {
        return false;
    };
    UnparsedPublicKey::new(&ED25519, public_key).verify(&message(chain_owner, seq, hash), &signature).is_ok()
}
