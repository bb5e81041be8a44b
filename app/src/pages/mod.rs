//! Route-level pages that are not part of a domain module, and the lazy routes: pages the chat
//! page does not need (sign-in forms, settings, admin, a shared conversation, watch preview, storybook) are split into
//! wasm chunks the router loads on the first visit, so the chat page's download does not carry
//! them (`cargo leptos build --split`; `crate::browser::lazy_page!` says how).

mod admin;
mod settings;
mod shared;
mod storybook;
mod watch;

use leptos::prelude::*;

use crate::browser::lazy_page;

lazy_page!(LoginRoute, palaver_login_page, crate::accounts::LoginPage);
lazy_page!(SignupRoute, palaver_signup_page, crate::accounts::SignupPage);
lazy_page!(SettingsRoute, palaver_settings_page, settings::SettingsPage);
lazy_page!(AdminRoute, palaver_admin_page, admin::AdminPage);
lazy_page!(SharedRoute, palaver_shared_page, shared::SharedPage);
lazy_page!(WatchRoute, palaver_watch_page, super::watch::WatchPage);
lazy_page!(StorybookIndexRoute, palaver_storybook_index, super::storybook::StorybookIndex);
lazy_page!(StorybookAskRoute, palaver_storybook_asks, super::storybook::StorybookAskPage);
lazy_page!(StorybookCardRoute, palaver_storybook_cards, super::storybook::StorybookCardPage);
lazy_page!(StorybookBlockRoute, palaver_storybook_blocks, super::storybook::StorybookBlockPage);
lazy_page!(StorybookAppsRoute, palaver_storybook_apps, super::storybook::StorybookAppsPage);
