//! The block documents the demo agent replies with ("dashboard", "checklist", "invoice
//! preview"). Each is a valid document under the server's default block settings (the
//! invoice needs html turned on); a test checks them. The texts live with the contract's fixtures
//! (contract/fixtures/blocks/demo), whose YAML reader tests read them too.

pub const DASHBOARD: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../contract/fixtures/blocks/demo/dashboard.yaml"));
pub const CHECKLIST: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../contract/fixtures/blocks/demo/checklist.yaml"));
pub const INVOICE_PREVIEW: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../contract/fixtures/blocks/demo/invoice-preview.yaml"));
