//! [`Vocabulary`]: every action a game can ever take, each with a fixed id.
//!
//! A game under given options has a finite set of actions it may ever list
//! as legal: the cards of its decks to play (or give, place, discard), its
//! bids and calls. [`Game::vocabulary`](crate::Game::vocabulary) lists them
//! in a fixed order, the game's own (`Game::append_vocabulary`): the
//! position of an action in that list is its id, for whoever needs actions
//! as small integers (OpenSpiel's games, tensors of a learning bot, a
//! compact encoding). Ids depend on the game and its options only, never
//! on a deal or a state; the tests pin each vocabulary's size and its first
//! and last entries, and check that every legal action met in random
//! playouts of every game and option set has an id.

use crate::action::Action;

/// The actions of one game under its options, in a fixed order; an
/// action's id is its position. See the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    actions: Vec<Action>,
    /// `(action, id)` sorted by action, for [`Vocabulary::id`].
    sorted: Vec<(Action, u16)>,
}

impl Vocabulary {
    /// The vocabulary of `actions` in this order; an action listed again
    /// keeps its first id.
    pub fn new(actions: impl IntoIterator<Item = Action>) -> Vocabulary {
        let mut sorted: Vec<(Action, u16)> = Vec::new();
        let mut list = Vec::new();
        for a in actions {
            if let Err(at) = sorted.binary_search_by(|(b, _)| b.cmp(&a)) {
                sorted.insert(at, (a, list.len() as u16));
                list.push(a);
            }
        }
        Vocabulary {
            actions: list,
            sorted,
        }
    }

    /// How many actions (OpenSpiel's `num_distinct_actions`).
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether there are none (never, for a game).
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Every action, in id order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The action with id `id`.
    pub fn action(&self, id: usize) -> Option<Action> {
        self.actions.get(id).copied()
    }

    /// The id of `action`, if the game can ever take it.
    pub fn id(&self, action: Action) -> Option<usize> {
        self.sorted
            .binary_search_by(|(b, _)| b.cmp(&action))
            .ok()
            .map(|i| self.sorted[i].1 as usize)
    }

    /// Whether the game can ever take `action`.
    pub fn contains(&self, action: Action) -> bool {
        self.id(action).is_some()
    }

    /// The canonical texts of the actions, in id order.
    pub fn texts(&self) -> impl Iterator<Item = String> + '_ {
        self.actions.iter().map(Action::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;

    #[test]
    fn ids_are_positions_and_repeats_keep_their_first_id() {
        let ace: Card = "AS".parse().unwrap();
        let v = Vocabulary::new([
            Action::Pass,
            Action::Play(ace),
            Action::Bid(3),
            Action::Pass,
        ]);
        assert_eq!(v.len(), 3);
        assert_eq!(
            v.actions(),
            &[Action::Pass, Action::Play(ace), Action::Bid(3)]
        );
        assert_eq!(v.id(Action::Pass), Some(0));
        assert_eq!(v.id(Action::Play(ace)), Some(1));
        assert_eq!(v.id(Action::Bid(3)), Some(2));
        assert_eq!(v.id(Action::Bid(4)), None);
        assert_eq!(v.action(1), Some(Action::Play(ace)));
        assert_eq!(v.action(3), None);
        assert_eq!(v.texts().collect::<Vec<_>>(), ["pass", "AS", "bid 3"]);
        assert!(!v.is_empty() && Vocabulary::new([]).is_empty());
    }
}
