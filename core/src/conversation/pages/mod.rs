//! The conversation list a page at a time: one statement finds a page's conversations (listed or
//! searched, through the search index), and the API's whole documents of a page are read in a
//! fixed number of statements, however many conversations the page or the owner holds.

pub mod store;
