//! The bad-input sweep against a real process: every API route and every server function, with
//! bad path ids, bad queries and bad bodies (not JSON, the wrong JSON, deep nesting, invalid
//! UTF-8, a body over the limit, broken multipart, the wrong content type), signed in and not.
//! Nothing gets a 5xx, every API error is the JSON problem shape, and the server stays up.

use serde_json::{Value, json};

const BAD_IDS: &[&str] = &["nope", "%00", "%FF%FE", "..%2F..%2Fetc%2Fpasswd", "%E2%80%AE", "%25%25"];

fn bad_bodies() -> Vec<(&'static str, Vec<u8>)> {
    let wrong_types = json!({
        "prompt": 1, "historyId": [], "title": {}, "username": null, "password": 5, "askResponse": "x",
        "surface": 7, "name": [1], "expiresInDays": -1, "attachments": "x", "model": {}, "replaceLast": "yes",
        "disabled": "no", "stepper": 3, "action": [], "payload": "p", "endOtherSessions": 2
    });
    vec![
        ("application/json", b"".to_vec()),
        ("application/json", b"{".to_vec()),
        ("application/json", b"null".to_vec()),
        ("application/json", b"[]".to_vec()),
        ("application/json", b"1e999999".to_vec()),
        ("application/json", b"{\"prompt\": \"\xff\xfe\"}".to_vec()),
        ("application/json", "[".repeat(100_000).into_bytes()),
        ("application/json", wrong_types.to_string().into_bytes()),
        ("application/json", json!({"prompt": "a".repeat(3_000_000)}).to_string().into_bytes()),
        ("text/plain", b"hello".to_vec()),
        ("multipart/form-data; boundary=", b"--\r\n".to_vec()),
        (
            "multipart/form-data; boundary=XyZ",
            b"--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\ncut".to_vec(),
        ),
        ("application/x-www-form-urlencoded", b"%%%=&&=%FF".to_vec()),
    ]
}

fn status(reply: &str) -> u16 {
    reply.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0)
}

fn body(reply: &str) -> &str {
    reply.split_once("\r\n\r\n").map(|(_, body)| body).unwrap_or_default()
}

/// A reply that is not a server error; an API error in the problem shape.
fn check(label: &str, reply: &str, api: bool) {
    let code = status(reply);
    assert!((100..500).contains(&code), "{label}: {}", reply.chars().take(600).collect::<String>());
    if api && code >= 400 {
        let problem: Value = serde_json::from_str(body(reply))
            .unwrap_or_else(|_| panic!("{label}: not a JSON problem: {}", reply.chars().take(600).collect::<String>()));
        assert_eq!(problem["status"], code, "{label}: {problem}");
        assert!(problem["title"].is_string(), "{label}: {problem}");
    }
}

/// Ends the caller's session: swept last.
fn signs_out(path: &str) -> bool {
    matches!(path, "/auth/logout" | "/api/log_out")
}

#[tokio::test]
async fn no_bad_input_to_any_route_gets_a_server_error_or_a_body_outside_the_problem_shape() {
    let server = crate::process::start(&json!({"responses": []}), &[]).await;
    let cookie = server.log_in().await;
    let mut routes: Vec<(String, String)> = palaver_server::api_route_table()
        .into_iter()
        // An event stream that opens never ends; its refusals are in http_events.
        .filter(|route| route.path != "/gpt/events")
        .map(|route| (route.method.to_string(), route.path.to_string()))
        .collect();
    routes.sort_by_key(|(_, path)| signs_out(path));
    let mut sent = 0;
    for (method, path) in &routes {
        // The pages a mail's links open answer in HTML, as pages do; the rest of the table is the API.
        let api = palaver_server::is_api_path(path);
        let paths: Vec<String> = if path.contains("{id}") || path.contains("{token}") {
            BAD_IDS.iter().map(|id| path.replace("{id}", id).replace("{token}", id)).collect()
        } else {
            vec![path.clone(), format!("{path}?format=%FF&all=maybe&limit=-1&before=%00")]
        };
        for target in &paths {
            for who in ["", cookie.as_str()] {
                if method == "GET" {
                    let reply = server.send(method, target, who, "application/json", b"").await;
                    check(&format!("{method} {target}"), &reply, api);
                    sent += 1;
                    continue;
                }
                for (content_type, bad) in bad_bodies() {
                    let reply = server.send(method, target, who, content_type, &bad).await;
                    check(&format!("{method} {target} ({content_type}, {} bytes)", bad.len()), &reply, api);
                    sent += 1;
                }
            }
        }
    }
    let cookie = server.log_in().await;
    let mut functions: Vec<&str> = palaver_server::SERVER_FN_ACCESS.iter().map(|(path, _)| *path).collect();
    functions.sort_by_key(|path| signs_out(path));
    let long_id = format!("id={}", "a".repeat(3000));
    let forms = ["", "%%%", "id=%FF", "id=%00&stream=%00&name=", long_id.as_str()];
    for function in functions {
        for who in ["", cookie.as_str()] {
            for form in forms {
                let reply =
                    server.send("POST", function, who, "application/x-www-form-urlencoded", form.as_bytes()).await;
                check(&format!("POST {function} {form:.20}"), &reply, false);
                sent += 1;
            }
            let reply = server.send("POST", function, who, "application/json", b"{\"id\": [1]}").await;
            check(&format!("POST {function} (json)"), &reply, false);
            sent += 1;
        }
    }
    for page in ["/%FF", "/c/%00", "/c/..%2F..%2Fetc%2Fpasswd", "/pkg/../../Cargo.toml", "/watch?x=%FF"] {
        let reply = server.send("GET", page, &cookie, "text/html", b"").await;
        check(&format!("GET {page}"), &reply, false);
        sent += 1;
    }
    let health = server.send("GET", "/health", "", "application/json", b"").await;
    assert!(health.starts_with("HTTP/1.1 200"), "still up after {sent} bad requests: {health}");
    assert!(sent > 1000, "the sweep covered {sent} requests");
}
