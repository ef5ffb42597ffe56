//! One module per game. Each holds the game's state type, its options, its
//! [`Game`](crate::Game) implementation and its scenario tests.

pub mod honeymoon;
pub mod illustrated;
pub mod israeli;
pub mod oneonta;
pub mod yogi;
