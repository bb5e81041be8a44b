//! The browser's clock and timers.

/// The browser's offset from UTC in minutes (east is positive); 0 on the server.
pub fn utc_offset_minutes() -> i64 {
    -(js_sys::Date::new_0().get_timezone_offset() as i64)
}

/// The browser's IANA time zone (`Europe/Berlin`); empty when it tells none.
pub fn time_zone() -> String {
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new()).resolved_options();
    js_sys::Reflect::get(&options, &"timeZone".into()).ok().and_then(|zone| zone.as_string()).unwrap_or_default()
}

/// The browser's clock, in milliseconds since 1970; 0 on the server.
pub fn now_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// Waits `duration` (a browser timer); on the server, not at all.
pub async fn sleep(duration: std::time::Duration) {
    let millis = i32::try_from(duration.as_millis()).unwrap_or(i32::MAX);
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = leptos::prelude::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, millis);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A moment (`epoch_ms`) in the reader's language and time zone, as the browser writes dates
/// ("6 Dec 2026, 09:30"); on the server, none.
pub fn local_moment(epoch_ms: i64) -> Option<String> {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(epoch_ms as f64));
    let options = js_sys::Object::new();
    for (key, value) in [("dateStyle", "medium"), ("timeStyle", "short")] {
        js_sys::Reflect::set(&options, &key.into(), &value.into()).ok()?;
    }
    let language = leptos::prelude::window().navigator().language().unwrap_or_default();
    Some(String::from(date.to_locale_string(&language, &options)))
}
