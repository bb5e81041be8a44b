//! Accounts in the page: signing in and up, the user menu, the password and API tokens in
//! Settings, the admins' list of users, and the server functions behind them.

mod admin_users;
pub mod api;
mod login_page;
mod password_fields;
mod password_section;
mod sign_in;
mod signup_page;
mod tokens_section;
mod user_menu;

pub use admin_users::AccountsSection;
pub use login_page::LoginPage;
pub use password_section::PasswordSection;
pub use signup_page::SignupPage;
pub use tokens_section::TokensSection;
pub use user_menu::UserMenu;
