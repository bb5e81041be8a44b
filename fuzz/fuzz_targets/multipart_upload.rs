//! The upload reader (`POST /files/upload`): the request's Content-Type (the first line) and its
//! multipart body (the rest), read as the route reads them: through multer, the reader behind
//! axum's `Multipart`, the `file` field picked out, its name and type by the upload rules, its
//! bytes counted against the cap.
#![no_main]

use bytes::Bytes;
use futures::executor::block_on;
use libfuzzer_sys::fuzz_target;
use palaver_contract::upload::{FILE_FIELD, upload_file_name, upload_mime_type};

const CAP: usize = 64 * 1024;

fuzz_target!(|data: &[u8]| {
    let Some(newline) = data.iter().position(|byte| *byte == b'\n') else { return };
    let Ok(content_type) = std::str::from_utf8(&data[..newline]) else { return };
    let Ok(boundary) = multer::parse_boundary(content_type) else { return };
    let body = Bytes::copy_from_slice(&data[newline + 1..]);
    // The body arrives in pieces, as from a socket.
    let pieces: Vec<Result<Bytes, std::io::Error>> =
        (0..body.len()).step_by(7).map(|at| Ok(body.slice(at..(at + 7).min(body.len())))).collect();
    let mut multipart = multer::Multipart::new(futures::stream::iter(pieces), boundary);
    block_on(async {
        while let Ok(Some(mut field)) = multipart.next_field().await {
            if field.name() != Some(FILE_FIELD) {
                continue;
            }
            let Ok(name) = upload_file_name(field.file_name()) else { return };
            let mime_type = upload_mime_type(field.content_type().map(|mime| mime.as_ref()), &name);
            assert!(!mime_type.is_empty() && !mime_type.contains(';'));
            let mut size = 0;
            while let Ok(Some(chunk)) = field.chunk().await {
                size += chunk.len();
                if size > CAP {
                    return;
                }
            }
            return;
        }
    });
});
