//! Mail in the app: Settings' "Mail" section (the person's address, confirmed through the link
//! mailed to it, and whether asks are mailed to it). It talks to the JSON API
//! (`/mail/settings…`) from the browser; the pages a mail's links open are the server's own.

mod section;

pub use section::MailSection;
