//! One folder per game. Each holds the game's state type, its options, its
//! [`Game`](crate::Game) implementation by stage and its scenario tests; a
//! game is registered by one line below.

#[macro_use]
mod registry;

register! {
    israeli::Israeli,
    honeymoon::Honeymoon,
    illustrated::Illustrated,
    yogi::Yogi,
    oneonta::Oneonta,
}

mod core;
mod observe;
mod prelude;
mod tricks;
pub use self::core::MatchCore;
pub(crate) use self::observe::{Shown, observe};

/// Helpers shared by the games' scenario tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::{Card, CardSet, Game, Seat};

    pub(crate) fn seat(i: usize) -> Seat {
        Seat::new(i)
    }

    pub(crate) fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    pub(crate) fn cards(text: &str) -> CardSet {
        text.parse().unwrap()
    }

    /// Parses `text` in `g`'s notation and applies it for seat `s`; panics
    /// with the text and the reason when it is refused.
    pub(crate) fn act<G: Game>(g: &mut G, s: usize, text: &str) {
        let a = g
            .parse_action(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        g.apply(seat(s), a)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}
