//! `heuristic`: a simple, deterministic bot that plays every game sensibly
//! from the generic parts of the observation alone.
//!
//! It estimates its tricks from high cards and trump length, bids close to
//! that estimate, and in play tries to win a trick while it still needs tricks
//! for its bid (or always, where there is no bid), with the cheapest card that
//! wins; otherwise it throws its cheapest card. It does not count cards or
//! read other seats' bids. It is a yardstick that beats `random` clearly, not a
//! strong player.

use std::cell::{Cell, RefCell};

use whistle_rules::{
    Action, Card, CardSet, Event, Game, Observation, Player, Rank, Seat, SeatSet, Strain, Suit,
    Trump, Variant,
};

use crate::bot::Bot;

/// The heuristic bot. Stateless: every decision comes from the observation.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeuristicBot;

/// Whether `card` is a trump under `trump` (jokers count as trumps wherever
/// a suit is trump or the jokers form the trump suit).
fn is_trump(card: Card, trump: Trump) -> bool {
    match (trump, card.suit()) {
        (Trump::Suit(t), Some(s)) => s == t,
        (Trump::Suit(_), None) | (Trump::Jokers, None) => true,
        (Trump::Nines, Some(_)) => card.rank() == Some(Rank::Nine),
        _ => false,
    }
}

/// A rough power: trumps above everything, then rank; jokers high.
fn power(card: Card, trump: Trump) -> u16 {
    let rank = match card.rank() {
        Some(r) => r.index() as u16,
        None if card == Card::BIG_JOKER => 14,
        None => 13,
    };
    if is_trump(card, trump) {
        100 + rank
    } else {
        rank
    }
}

/// Whether `card` would beat the trick's current best card `best`, given the
/// suit led: the card-by-card reference of [`Powers::beats`].
#[cfg(test)]
fn beats(card: Card, best: Card, led: Option<Suit>, trump: Trump) -> bool {
    let ct = is_trump(card, trump);
    let bt = is_trump(best, trump);
    match (ct, bt) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => power(card, trump) > power(best, trump),
        (false, false) => card.suit() == led && power(card, trump) > power(best, trump),
    }
}

/// [`power`] and [`beats`] for one trump on bit sets: the cards of least
/// and most power in a set, the cards that beat a card, each a few masks
/// and table lookups instead of a card's suit and rank at a time: what
/// play decisions use (`tests` check them against the card-by-card ones
/// for every card, trump and suit led).
#[derive(Clone, Copy)]
struct Powers {
    trumps: CardSet,
}

/// Each card's rank power ([`power`] without trumps): the rank's index,
/// 13 for the little joker, 14 for the big one.
const RANK_POWER: [u16; Card::COUNT] = {
    let mut t = [0; Card::COUNT];
    let mut i = 0;
    while i < 52 {
        t[i] = (i % 13) as u16;
        i += 1;
    }
    t[Card::LITTLE_JOKER.index()] = 13;
    t[Card::BIG_JOKER.index()] = 14;
    t
};

/// Each card's printed suit as a number, 4 for a joker (no suit).
const SUIT_CODE: [u8; Card::COUNT] = {
    let mut t = [4; Card::COUNT];
    let mut i = 0;
    while i < 52 {
        t[i] = (i / 13) as u8;
        i += 1;
    }
    t
};

/// A card's printed suit as a number, 4 for a joker (no suit).
#[inline]
fn suit_code(card: Card) -> u8 {
    SUIT_CODE[card.index()]
}

/// The cards of each rank power (a rank's four cards, then each joker).
const RANK_CARDS: [CardSet; 15] = {
    let mut t = [CardSet::EMPTY; 15];
    let mut r = 0;
    while r < 13 {
        t[r] = CardSet::from_bits(0x1 << r | 0x1 << (r + 13) | 0x1 << (r + 26) | 0x1 << (r + 39));
        r += 1;
    }
    t[13] = CardSet::single(Card::LITTLE_JOKER);
    t[14] = CardSet::single(Card::BIG_JOKER);
    t
};

/// The cards of a rank power above each one.
const HIGHER: [CardSet; 15] = {
    let mut t = [CardSet::EMPTY; 15];
    let mut p = 15;
    while p > 1 {
        p -= 1;
        t[p - 1] = t[p].or(RANK_CARDS[p]);
    }
    t
};

/// The cards of each suit code ([`suit_code`]): a suit, 4 for the jokers.
const SUIT_CARDS: [CardSet; 5] = [
    CardSet::suit(Suit::Clubs),
    CardSet::suit(Suit::Diamonds),
    CardSet::suit(Suit::Hearts),
    CardSet::suit(Suit::Spades),
    CardSet::JOKERS,
];

/// The rank powers `set` holds, as bits of a mask (bit `r` for
/// [`RANK_POWER`] `r`): its four suits folded onto one, the jokers above.
#[inline]
fn rank_powers(set: CardSet) -> u16 {
    let b = set.bits();
    let suits = (b | b >> 13 | b >> 26 | b >> 39) & 0x1fff;
    (suits | (b >> 52 & 0b11) << 13) as u16
}

impl Powers {
    #[inline]
    fn new(trump: Trump) -> Powers {
        let trumps = match trump {
            Trump::Suit(t) => CardSet::suit(t).or(CardSet::JOKERS),
            Trump::Jokers => CardSet::JOKERS,
            Trump::Nines => CardSet::rank(Rank::Nine),
            _ => CardSet::EMPTY,
        };
        Powers { trumps }
    }

    #[cfg(test)]
    fn power(self, card: Card) -> u16 {
        let rank = RANK_POWER[card.index()];
        if self.trumps.contains(card) {
            100 + rank
        } else {
            rank
        }
    }

    /// [`beats`], with the suit led as [`suit_code`] gives it.
    #[cfg(test)]
    fn beats(self, card: Card, best: Card, led: u8) -> bool {
        match (self.trumps.contains(card), self.trumps.contains(best)) {
            (true, false) => true,
            (false, true) => false,
            (true, true) => self.power(card) > self.power(best),
            (false, false) => suit_code(card) == led && self.power(card) > self.power(best),
        }
    }

    /// The cards of `set` with the least power: all of the lowest rank
    /// among its plain cards, else among its trumps (empty for an empty set).
    #[inline]
    fn cheapest(self, set: CardSet) -> CardSet {
        let plain = set.minus(self.trumps);
        let pool = if plain.is_empty() {
            set.and(self.trumps)
        } else {
            plain
        };
        match rank_powers(pool).trailing_zeros() {
            r @ 0..=14 => pool.and(RANK_CARDS[r as usize]),
            _ => CardSet::EMPTY,
        }
    }

    /// The cards of `set` with the most power: all of the highest rank
    /// among its trumps, else among its plain cards (empty for an empty set).
    #[inline]
    fn dearest(self, set: CardSet) -> CardSet {
        let trumps = set.and(self.trumps);
        let pool = if trumps.is_empty() { set } else { trumps };
        match rank_powers(pool).leading_zeros() {
            z @ 1..=15 => pool.and(RANK_CARDS[(15 - z) as usize]),
            _ => CardSet::EMPTY,
        }
    }

    /// Every card that beats `best` when `led` ([`suit_code`]) was led:
    /// the higher trumps if `best` is a trump, else every trump and the
    /// higher plain cards of the suit led.
    #[inline]
    fn beaters(self, best: Card, led: u8) -> CardSet {
        let higher = HIGHER[usize::from(RANK_POWER[best.index()])];
        if self.trumps.contains(best) {
            self.trumps.and(higher)
        } else {
            let suit = SUIT_CARDS[usize::from(led.min(4))];
            self.trumps.or(suit.minus(self.trumps).and(higher))
        }
    }

    /// The cards that would beat the trick's winning card so far
    /// ([`Powers::beaters`] of it), `None` for an empty trick: followed
    /// card by card, each card that beats the ones before it taking over.
    #[inline]
    fn beating(self, cards: &[(Player, Card)]) -> Option<CardSet> {
        let (&(_, first), rest) = cards.split_first()?;
        let led = suit_code(first);
        let mut beaters = self.beaters(first, led);
        for &(_, c) in rest {
            if beaters.contains(c) {
                beaters = self.beaters(c, led);
            }
        }
        Some(beaters)
    }

    /// The trick's winning card so far: the reference of
    /// [`Powers::beating`].
    #[cfg(test)]
    fn winning_card(self, cards: &[(Player, Card)]) -> Option<Card> {
        let led = suit_code(cards.first()?.1);
        let mut best = cards[0].1;
        for &(_, c) in &cards[1..] {
            if self.beats(c, best, led) {
                best = c;
            }
        }
        Some(best)
    }
}

/// Expected tricks of `hand` with `trump`: aces, guarded kings and queens,
/// and trump length beyond three.
fn estimate(hand: CardSet, trump: Trump) -> f32 {
    Estimates::new(hand).under(trump)
}

/// The number of bits set in each 7-bit number.
const BITS_IN: [u8; 128] = {
    let mut t = [0; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// [`estimate`] of one hand under any trump: each suit's terms worked out
/// once, then summed for a trump in the order a suit-by-suit sum adds them
/// (queen, king, ace, then the long-trump bonus, suit after suit), so that
/// every sum is the same to the bit (an absent term adds 0.0, which
/// changes no sum of terms that are never negative).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Estimates {
    /// Each suit's queen, king and ace terms (0.0 where they do not count)
    /// and its bonus as trump.
    terms: [[f32; 4]; 4],
    jokers: f32,
}

impl Estimates {
    fn new(hand: CardSet) -> Estimates {
        const QUEEN: u64 = 1 << Rank::Queen as u32;
        const KING: u64 = 1 << Rank::King as u32;
        const ACE: u64 = 1 << Rank::Ace as u32;
        let bits = hand.bits();
        let mut terms = [[0.0; 4]; 4];
        for (suit, t) in terms.iter_mut().enumerate() {
            // The suit's cards as 13 bits, one a rank; counted by halves.
            let cards = bits >> (13 * suit) & 0x1fff;
            let len = BITS_IN[(cards & 0x7f) as usize] + BITS_IN[(cards >> 7) as usize];
            if len >= 3 && cards & QUEEN != 0 {
                t[0] = 0.35;
            }
            if len >= 2 && cards & KING != 0 {
                t[1] = 0.7;
            }
            if cards & ACE != 0 {
                t[2] = 1.0;
            }
            // 0.0 (adding nothing) up to three cards.
            t[3] = 0.8 * f32::from(len.saturating_sub(3));
        }
        Estimates {
            terms,
            jokers: f32::from(BITS_IN[(bits >> 52 & 0b11) as usize]),
        }
    }

    fn under(&self, trump: Trump) -> f32 {
        let mut tricks = 0.0;
        for (suit, t) in Suit::ALL.into_iter().zip(&self.terms) {
            tricks += t[0];
            tricks += t[1];
            tricks += t[2];
            if Trump::Suit(suit) == trump {
                tricks += t[3];
            }
        }
        tricks + self.jokers
    }
}

/// [`estimate`] suit by suit as it was first written: the reference
/// [`Estimates`] is checked against.
#[cfg(test)]
fn estimate_by_card(hand: CardSet, trump: Trump) -> f32 {
    let mut tricks = 0.0;
    for suit in Suit::ALL {
        let cards = hand.and(CardSet::suit(suit));
        let len = cards.len();
        // The honours in the order of the cards (queen, king, ace), as a
        // card-by-card sum adds them (adding nothing for the others).
        if len >= 3 && cards.contains(Card::new(Rank::Queen, suit)) {
            tricks += 0.35;
        }
        if len >= 2 && cards.contains(Card::new(Rank::King, suit)) {
            tricks += 0.7;
        }
        if cards.contains(Card::new(Rank::Ace, suit)) {
            tricks += 1.0;
        }
        if Trump::Suit(suit) == trump && len > 3 {
            tricks += 0.8 * (len - 3) as f32;
        }
    }
    tricks + hand.and(CardSet::JOKERS).len() as f32
}

fn strain_trump(strain: Strain) -> Trump {
    match strain {
        Strain::Suit(s) => Trump::Suit(s),
        Strain::NoTrump => Trump::NoTrump,
    }
}

/// What the heuristic reads of a position, everywhere but Yogi's bid cards:
/// from an [`Observation`] (a bot's decision) or straight from the game's
/// cheap views (a playout's), which give the same values.
trait Sight {
    /// The cards the deciding seat holds.
    fn hand(&self) -> CardSet;
    /// Trump, as far as known.
    fn trump(&self) -> Trump;
    /// The trick in progress.
    fn trick(&self) -> &[(Player, Card)];
    /// The deciding seat's bid this hand and the tricks it has won.
    fn bid_and_tricks(&self) -> (Option<Action>, u8);
    /// Whether the deciding seat has a partner.
    fn has_partner(&self) -> bool;
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// The estimates of the deciding seat's hand.
    fn estimates(&self) -> Estimates {
        Estimates::new(self.hand())
    }
}

impl Sight for Observation {
    fn hand(&self) -> CardSet {
        self.hand
    }

    fn trump(&self) -> Trump {
        self.trump
    }

    fn trick(&self) -> &[(Player, Card)] {
        &self.trick.cards
    }

    fn bid_and_tricks(&self) -> (Option<Action>, u8) {
        let me = self.me();
        (me.bid, me.tricks)
    }

    fn has_partner(&self) -> bool {
        let me = self.me();
        self.players
            .iter()
            .any(|p| p.seat != me.seat && p.team == me.team)
    }

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }
}

/// What the heuristic keeps between decisions of one match (a playout
/// makes one for its own): what depends only on the match or only on a
/// hand of cards, so that keeping it changes no choice.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    /// The seats with a partner, read from [`Game::teams`] at the first
    /// decision that asks (teams are the match's).
    partnered: Cell<Option<SeatSet>>,
    /// The last hand estimated for each seat (by its index modulo 4) and
    /// its estimates: an auction and the bids after it estimate the same
    /// hands again and again.
    estimates: RefCell<[Option<(CardSet, Estimates)>; 4]>,
}

/// A seat of a game, seen through the game's views
/// ([`Game::hand_of`], [`Game::current_trick`], ...) instead of a whole
/// observation.
struct InGame<'g, 'm, G> {
    game: &'g G,
    seat: Seat,
    /// What the match's earlier decisions read.
    memo: &'m Memo,
}

impl<G: Game> Sight for InGame<'_, '_, G> {
    fn hand(&self) -> CardSet {
        self.game.hand_of(self.seat)
    }

    fn trump(&self) -> Trump {
        self.game.trump_now()
    }

    fn trick(&self) -> &[(Player, Card)] {
        self.game.current_trick().cards()
    }

    fn bid_and_tricks(&self) -> (Option<Action>, u8) {
        (
            self.game.bid_seen(self.seat, self.seat),
            self.game.tricks_won(self.seat),
        )
    }

    fn has_partner(&self) -> bool {
        let partnered = self.memo.partnered.get().unwrap_or_else(|| {
            let teams = self.game.teams();
            let set = (0..teams.len())
                .filter(|&me| (0..teams.len()).any(|s| s != me && teams[s] == teams[me]))
                .map(Seat::new)
                .collect();
            self.memo.partnered.set(Some(set));
            set
        });
        partnered.contains(self.seat)
    }

    fn seats(&self) -> usize {
        self.game.seats()
    }

    fn estimates(&self) -> Estimates {
        let hand = self.hand();
        let mut memo = self.memo.estimates.borrow_mut();
        let slot = &mut memo[self.seat.index() % 4];
        match *slot {
            Some((held, estimates)) if held == hand => estimates,
            _ => {
                let estimates = Estimates::new(hand);
                *slot = Some((hand, estimates));
                estimates
            }
        }
    }
}

impl HeuristicBot {
    /// Every decision but Yogi's bid cards, from what `sight` shows.
    fn decide(&self, sight: &impl Sight, legal: &[Action]) -> usize {
        match legal.first() {
            Some(Action::Play(_)) => self.play(sight, legal),
            Some(Action::Bid(_)) => self.bid(sight, legal),
            Some(Action::Pass) if legal.iter().any(|a| matches!(a, Action::Contract { .. })) => {
                self.auction(sight, legal)
            }
            Some(Action::Give(_) | Action::Discard(_) | Action::Place(_)) => {
                // Part with the weakest card.
                let trump = sight.trump();
                legal
                    .iter()
                    .enumerate()
                    .filter_map(|(i, a)| a.card().map(|c| (i, power(c, trump))))
                    .min_by_key(|&(_, p)| p)
                    .map_or(0, |(i, _)| i)
            }
            _ => 0,
        }
    }

    fn play(&self, sight: &impl Sight, legal: &[Action]) -> usize {
        let wants = match sight.bid_and_tricks() {
            (Some(Action::Bid(n)), tricks) => tricks < n,
            (Some(Action::Null(_)), _) => false,
            _ => true,
        };
        let mut plays = CardSet::EMPTY;
        for a in legal {
            if let Action::Play(c) = a {
                plays.insert(*c);
            }
        }
        // The first of the least powerful; the last of the most powerful
        // (in the order of `legal`, as a list's minimum and maximum by power
        // would pick them).
        let first = |cards: CardSet| {
            legal
                .iter()
                .position(|a| matches!(a, Action::Play(c) if cards.contains(*c)))
        };
        let last = |cards: CardSet| {
            legal
                .iter()
                .rposition(|a| matches!(a, Action::Play(c) if cards.contains(*c)))
        };
        let trump = Powers::new(sight.trump());
        let pick = match trump.beating(sight.trick()) {
            // Leading: cash a top card when tricks are wanted, else lead low.
            None => {
                let aces = plays.and(CardSet::rank(Rank::Ace));
                if wants && !aces.is_empty() {
                    last(trump.dearest(aces))
                } else {
                    first(trump.cheapest(plays))
                }
            }
            Some(beaters) => {
                let winners = plays.and(beaters);
                let losers = plays.minus(beaters);
                if wants && !winners.is_empty() {
                    first(trump.cheapest(winners))
                } else if !wants && !losers.is_empty() {
                    // Duck: the highest card that still loses, else the cheapest.
                    last(trump.dearest(losers))
                } else {
                    first(trump.cheapest(plays))
                }
            }
        };
        pick.unwrap_or(0)
    }

    /// [`HeuristicBot::play`] card by card over the list: the reference
    /// the bit sets are checked against.
    #[cfg(test)]
    fn play_by_list(&self, sight: &impl Sight, legal: &[Action]) -> usize {
        let trump = sight.trump();
        let wants = match sight.bid_and_tricks() {
            (Some(Action::Bid(n)), tricks) => tricks < n,
            (Some(Action::Null(_)), _) => false,
            _ => true,
        };
        let cards = || {
            legal.iter().enumerate().filter_map(|(i, a)| match a {
                Action::Play(c) => Some((i, *c)),
                _ => None,
            })
        };
        // The first of the least powerful; the last of the most powerful.
        fn cheapest(it: impl Iterator<Item = (usize, Card)>, trump: Powers) -> Option<usize> {
            it.min_by_key(|&(_, c)| trump.power(c)).map(|(i, _)| i)
        }
        fn dearest(it: impl Iterator<Item = (usize, Card)>, trump: Powers) -> Option<usize> {
            it.max_by_key(|&(_, c)| trump.power(c)).map(|(i, _)| i)
        }
        let trump = Powers::new(trump);
        let trick = sight.trick();
        let Some(best) = trump.winning_card(trick) else {
            // Leading: cash a top card when tricks are wanted, else lead low.
            let pick = if wants {
                dearest(cards().filter(|(_, c)| c.rank() == Some(Rank::Ace)), trump)
                    .or_else(|| cheapest(cards(), trump))
            } else {
                cheapest(cards(), trump)
            };
            return pick.unwrap_or(0);
        };
        let led = suit_code(trick[0].1);
        let winners = cards().filter(|&(_, c)| trump.beats(c, best, led));
        let pick = if wants {
            cheapest(winners, trump).or_else(|| cheapest(cards(), trump))
        } else {
            // Duck: the highest card that still loses, else the cheapest.
            dearest(cards().filter(|&(_, c)| !trump.beats(c, best, led)), trump)
                .or_else(|| cheapest(cards(), trump))
        };
        pick.unwrap_or(0)
    }

    fn bid(&self, sight: &impl Sight, legal: &[Action]) -> usize {
        let est = sight.estimates().under(sight.trump()).round() as i32;
        legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Bid(n) => Some((i, (*n as i32 - est).abs())),
                _ => None,
            })
            .min_by_key(|&(_, d)| d)
            .map_or(0, |(i, _)| i)
    }

    /// Yogi's bid cards (Y4, Y12): the card whose value brings the target
    /// closest to the tricks the cards kept are worth; the weakest of
    /// those.
    fn place(&self, obs: &Observation, legal: &[Action]) -> usize {
        let turn_up = obs
            .table
            .iter()
            .find(|t| t.label == "turn-up")
            .and_then(|t| t.card.suit());
        let value = |c: Card| match c.suit().or(turn_up) {
            Some(Suit::Diamonds) | None => 0,
            Some(Suit::Spades) => 1,
            Some(Suit::Hearts) => 2,
            Some(Suit::Clubs) => 3,
        };
        // The values of the cards this seat placed already this hand.
        let placed: i32 = obs
            .history
            .iter()
            .filter_map(|e| match e {
                Event::Action {
                    seat,
                    action: Action::Place(c),
                } if *seat == obs.seat => Some(value(*c)),
                _ => None,
            })
            .sum();
        legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| a.card().map(|c| (i, c)))
            .min_by_key(|&(_, c)| {
                let mut kept = obs.hand;
                kept.remove(c);
                let tricks = estimate(kept, obs.trump).round() as i32;
                ((placed + value(c) - tricks).abs(), power(c, obs.trump))
            })
            .map_or(0, |(i, _)| i)
    }

    fn auction(&self, sight: &impl Sight, legal: &[Action]) -> usize {
        let pass = legal.iter().position(|a| *a == Action::Pass);
        // A partner's hand is worth its share of the tricks (three of
        // twelve in Illustrated Whist), and the declarer's choice of trump
        // and of the kitty's exchange about two more: measured, bidding on
        // less leaves too many hands passed out against `first`.
        let hand = sight.hand();
        let allowance = if sight.has_partner() {
            hand.len() as f32 / sight.seats() as f32 + 2.0
        } else {
            0.0
        };
        let estimates = sight.estimates();
        let best = Strain::ALL
            .into_iter()
            .map(|s| (s, estimates.under(strain_trump(s)) + allowance))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((strain, est)) = best else {
            return pass.unwrap_or(0);
        };
        // Bid only what the hand is worth, in its best strain, as low as
        // allowed: the first of the fewest tricks (the strain compared
        // last, only for a contract that would be the new choice).
        // Contracts of fewer tricks than `below` qualify: at first every
        // one the estimate reaches (`tricks as f32 <= est` for whole
        // tricks), then fewer than the choice so far.
        let mut below = if est >= 0.0 {
            est.min(255.0) as u16 + 1
        } else {
            0
        };
        let mut bid = None;
        for (i, a) in legal.iter().enumerate() {
            if let Action::Contract { tricks, strain: s } = *a {
                if u16::from(tricks) < below && s == strain {
                    bid = Some(i);
                    below = u16::from(tricks);
                }
            }
        }
        bid.or(pass).unwrap_or(0)
    }

    /// [`HeuristicBot::auction`] with a contract picked as the least by
    /// tricks of a filtered list: the reference of its loop.
    #[cfg(test)]
    fn auction_by_list(&self, sight: &impl Sight, legal: &[Action]) -> usize {
        let pass = legal.iter().position(|a| *a == Action::Pass);
        // A partner's hand is worth its share of the tricks (three of
        // twelve in Illustrated Whist), and the declarer's choice of trump
        // and of the kitty's exchange about two more: measured, bidding on
        // less leaves too many hands passed out against `first`.
        let hand = sight.hand();
        let allowance = if sight.has_partner() {
            hand.len() as f32 / sight.seats() as f32 + 2.0
        } else {
            0.0
        };
        let estimates = sight.estimates();
        let best = Strain::ALL
            .into_iter()
            .map(|s| (s, estimates.under(strain_trump(s)) + allowance))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((strain, est)) = best else {
            return pass.unwrap_or(0);
        };
        // Bid only what the hand is worth, in its best strain, as low as allowed.
        let bid = legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Action::Contract { tricks, strain: s }
                    if *s == strain && (*tricks as f32) <= est =>
                {
                    Some((i, *tricks))
                }
                _ => None,
            })
            .min_by_key(|&(_, t)| t);
        bid.map(|(i, _)| i).or(pass).unwrap_or(0)
    }
}

impl HeuristicBot {
    /// The choice [`Bot::choose`] makes on `game.observe(seat)`, read from
    /// the game's views (the seat's hand, the trick, bids, trump) without
    /// building an observation, everywhere but Yogi's bid cards (a few
    /// decisions a hand, which read the hand's history): what a playout
    /// calls at every decision.
    pub fn choose_in<G: Game>(self, game: &G, seat: Seat, legal: &[Action]) -> usize {
        self.choose_memo(game, seat, legal, &Memo::default())
    }

    /// [`HeuristicBot::choose_in`] with what `memo` keeps of the match's
    /// earlier decisions (a playout passes one to all of its own).
    pub(crate) fn choose_memo<G: Game>(
        self,
        game: &G,
        seat: Seat,
        legal: &[Action],
        memo: &Memo,
    ) -> usize {
        match legal.first() {
            Some(Action::Place(_)) if game.variant() == Variant::Yogi => {
                self.place(&game.observe(seat), legal)
            }
            _ => self.decide(&InGame { game, seat, memo }, legal),
        }
    }
}

/// The list-based reference decisions, for tests.
#[cfg(test)]
impl HeuristicBot {
    /// [`Bot::choose`] with plays decided card by card over the list
    /// ([`HeuristicBot::play_by_list`]) and contracts picked from a
    /// filtered list ([`HeuristicBot::auction_by_list`]).
    fn choose_by_list(self, obs: &Observation, legal: &[Action]) -> usize {
        match legal.first() {
            Some(Action::Play(_)) => self.play_by_list(obs, legal),
            Some(Action::Pass) if legal.iter().any(|a| matches!(a, Action::Contract { .. })) => {
                self.auction_by_list(obs, legal)
            }
            _ => {
                let mut bot = self;
                bot.choose(obs, legal)
            }
        }
    }
}

impl Bot for HeuristicBot {
    fn choose(&mut self, obs: &Observation, legal: &[Action]) -> usize {
        match legal.first() {
            Some(Action::Place(_)) if obs.game == Variant::Yogi => self.place(obs, legal),
            _ => self.decide(obs, legal),
        }
    }

    fn wants_events(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn choosing_in_a_game_is_choosing_on_its_whole_observation() {
        use whistle_rules::{
            Options,
            dealing::{self, Seed, Shuffler},
        };
        for variant in Variant::ALL {
            let mut g = variant
                .new_game(&Options::parse(&["hands=6"]).unwrap())
                .unwrap();
            let mut rng = Shuffler::new(Seed::from_u64(4));
            let mut decisions = 0;
            while !g.is_over() {
                dealing::deal_if_needed(&mut g, Seed::from_u64(8)).unwrap();
                let seat = g.to_act().first().unwrap();
                let legal = g.legal_actions(seat);
                let obs = g.observe(seat);
                let whole = HeuristicBot.choose(&obs, &legal);
                assert_eq!(HeuristicBot.choose_in(&g, seat, &legal), whole, "{variant}");
                assert_eq!(
                    HeuristicBot.choose_by_list(&obs, &legal),
                    whole,
                    "{variant}"
                );
                // Half the time the heuristic's move, else a random one: the
                // match reaches positions the heuristic alone would not.
                let i = if rng.below(2) == 0 {
                    whole
                } else {
                    rng.below(legal.len() as u32) as usize
                };
                g.apply(seat, legal[i]).unwrap();
                decisions += 1;
            }
            assert!(decisions > 40, "{variant}: {decisions}");
        }
    }

    /// The views a playout decides from give the choice of the whole
    /// observation, and the bit sets the choice of the list-based
    /// reference, over many positions of every game under every option
    /// set its engine suites play (`crates/rules/src/games/*/testdata/options.txt`):
    /// every seat to act at every step, the heuristic and random moves
    /// mixed so that matches reach positions either alone would not.
    #[test]
    fn the_views_choose_as_the_whole_observation_under_every_option_set() {
        use whistle_rules::{
            Options,
            dealing::{self, Seed, Shuffler},
        };
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/rules/src/games");
        for variant in Variant::ALL {
            let path = root.join(variant.name()).join("testdata/options.txt");
            let text = std::fs::read_to_string(&path).unwrap();
            let mut sets = 0;
            for line in text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
            {
                let pairs: Vec<&str> = line.split_whitespace().collect();
                let options = Options::parse(&pairs).unwrap();
                let fresh = variant.new_game(&options).unwrap();
                sets += 1;
                let mut decisions = 0;
                for seed in 0..12u64 {
                    let mut g = fresh.clone();
                    let mut rng = Shuffler::new(Seed::from_u64(100 + seed));
                    // Up to 400 decisions a match: long enough for several hands.
                    while !g.is_over() && decisions < 400 * (seed + 1) {
                        if dealing::deal_if_needed(&mut g, Seed::from_u64(seed)).unwrap() {
                            continue;
                        }
                        let to_act: Vec<Seat> = g.to_act().iter().collect();
                        for &seat in &to_act {
                            let legal = g.legal_actions(seat);
                            let obs = g.observe(seat);
                            let whole = HeuristicBot.choose(&obs, &legal);
                            assert_eq!(
                                HeuristicBot.choose_in(&g, seat, &legal),
                                whole,
                                "{variant} {line}, seed {seed}, seat {seat}, legal {legal:?}"
                            );
                            assert_eq!(
                                HeuristicBot.choose_by_list(&obs, &legal),
                                whole,
                                "by list: {variant} {line}, seed {seed}, seat {seat}, legal {legal:?}"
                            );
                        }
                        let seat = to_act[rng.below(to_act.len() as u32) as usize];
                        let legal = g.legal_actions(seat);
                        let i = if rng.below(3) == 0 {
                            rng.below(legal.len() as u32) as usize
                        } else {
                            HeuristicBot.choose_in(&g, seat, &legal)
                        };
                        g.apply(seat, legal[i]).unwrap();
                        decisions += 1;
                    }
                }
                assert!(decisions > 300, "{variant} {line}: {decisions}");
            }
            assert!(sets > 0, "{variant}: no option set");
        }
    }

    #[test]
    fn powers_on_bit_sets_are_the_card_by_card_ones() {
        let mut trumps = vec![
            Trump::NoTrump,
            Trump::Undecided,
            Trump::Jokers,
            Trump::Nines,
        ];
        trumps.extend(Suit::ALL.map(Trump::Suit));
        let cards: Vec<Card> = (0..Card::COUNT).filter_map(Card::from_index).collect();
        for trump in trumps {
            let p = Powers::new(trump);
            for &a in &cards {
                assert_eq!(p.power(a), power(a, trump), "{a} {trump:?}");
                for &b in &cards {
                    for led in [a.suit(), b.suit(), Some(Suit::Clubs), None] {
                        let code = led.map_or(4, |s| s as u8);
                        assert_eq!(
                            p.beats(a, b, code),
                            beats(a, b, led, trump),
                            "{a} {b} {led:?} {trump:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn trumps_beat_the_suit_led_and_rank_decides_within_a_suit() {
        let t = Trump::Suit(Suit::Hearts);
        assert!(beats(c("2H"), c("AS"), Some(Suit::Spades), t));
        assert!(!beats(c("KS"), c("AS"), Some(Suit::Spades), t));
        assert!(!beats(c("AD"), c("2S"), Some(Suit::Spades), t));
        assert!(beats(c("BJ"), c("AH"), Some(Suit::Spades), t));
    }

    /// Over matches of `variant` on the same deals with the two bots' seats
    /// swapped (heuristic and first alternate around the table): the
    /// heuristic seats' totals minus first's, and the targets each side made
    /// (heuristic, first).
    fn duplicate(
        variant: whistle_rules::Variant,
        options: &[&str],
        matches: u64,
    ) -> (i64, [u32; 2]) {
        use whistle_rules::{Game, Options, dealing::Seed};

        use crate::{FirstBot, play_match};
        let mut margin = 0i64;
        let mut made = [0u32; 2];
        for m in 0..matches {
            for swap in [false, true] {
                let mut g = variant.new_game(&Options::parse(options).unwrap()).unwrap();
                let seats = g.seats();
                let mine = |s: usize| (s % 2 == 0) != swap;
                let mut bots: Vec<Box<dyn Bot>> = (0..seats)
                    .map(|s| -> Box<dyn Bot> {
                        if mine(s) {
                            Box::new(HeuristicBot)
                        } else {
                            Box::new(FirstBot)
                        }
                    })
                    .collect();
                let r = play_match(&mut g, Seed::from_u64(m), &mut bots).unwrap();
                for (s, t) in r.result.totals.iter().enumerate() {
                    margin += if mine(s) { *t as i64 } else { -(*t as i64) };
                }
                for h in &r.hands {
                    for (s, m) in h.result.made.iter().enumerate() {
                        if *m == Some(true) {
                            made[usize::from(!mine(s))] += 1;
                        }
                    }
                }
            }
        }
        (margin, made)
    }

    /// Yogi's bid card chosen by the target it sets: targets made far more
    /// often than `first`'s, and fewer fines, on the same deals (throwing
    /// the weakest card whatever the target made about as many as `first`).
    #[test]
    fn yogi_bid_cards_by_target_make_their_targets() {
        let (margin, [mine, first]) =
            duplicate(whistle_rules::Variant::Yogi, &["players=4", "hands=4"], 30);
        assert!(margin < 0, "heuristic fines minus first's: {margin}");
        assert!(
            mine > 2 * first,
            "targets made: heuristic {mine}, first {first}"
        );
    }

    /// Illustrated Whist, counting a partner's share in the auction: the
    /// heuristic's partnership outscores `first`'s on the same deals (it
    /// passed every hand before, so both sides scored nothing).
    #[test]
    fn partnership_auctions_beat_first() {
        let (margin, _) = duplicate(whistle_rules::Variant::Illustrated, &["hands=4"], 15);
        assert!(margin > 0, "heuristic side minus first's: {margin}");
    }

    /// Every power class and beating set on bit sets is the card-by-card
    /// one, over random sets of every deck's cards under every trump.
    #[test]
    fn power_classes_on_bit_sets_are_the_card_by_card_ones() {
        use whistle_rules::dealing::{Seed, Shuffler};
        let mut trumps = vec![
            Trump::NoTrump,
            Trump::Undecided,
            Trump::Jokers,
            Trump::Nines,
        ];
        trumps.extend(Suit::ALL.map(Trump::Suit));
        let cards: Vec<Card> = (0..Card::COUNT).filter_map(Card::from_index).collect();
        let mut rng = Shuffler::new(Seed::from_u64(3));
        for trump in trumps {
            let p = Powers::new(trump);
            assert!(p.cheapest(CardSet::EMPTY).is_empty());
            assert!(p.dearest(CardSet::EMPTY).is_empty());
            for &best in &cards {
                for led in 0..5u8 {
                    let by_card: CardSet = cards
                        .iter()
                        .copied()
                        .filter(|&c| p.beats(c, best, led))
                        .collect();
                    assert_eq!(p.beaters(best, led), by_card, "{best} {led} {trump:?}");
                }
            }
            for round in 0..2000u32 {
                // Sets of 1 to 20 cards, sparse and dense.
                let mut set = CardSet::EMPTY;
                for _ in 0..=(round % 20) {
                    set.insert(cards[rng.below(cards.len() as u32) as usize]);
                }
                let powers: Vec<u16> = set.iter().map(|c| p.power(c)).collect();
                let (min, max) = (powers.iter().min(), powers.iter().max());
                let with = |q: Option<&u16>| -> CardSet {
                    set.iter().filter(|&c| Some(&p.power(c)) == q).collect()
                };
                assert_eq!(p.cheapest(set), with(min), "{set} {trump:?}");
                assert_eq!(p.dearest(set), with(max), "{set} {trump:?}");
            }
        }
    }

    /// The estimates summed per trump from the terms worked out once are the
    /// suit-by-suit sums to the bit, over random hands of every size.
    #[test]
    fn estimates_are_the_suit_by_suit_sums_to_the_bit() {
        use whistle_rules::dealing::{Seed, Shuffler};
        let mut trumps = vec![
            Trump::NoTrump,
            Trump::Undecided,
            Trump::Jokers,
            Trump::Nines,
        ];
        trumps.extend(Suit::ALL.map(Trump::Suit));
        let mut rng = Shuffler::new(Seed::from_u64(5));
        for round in 0..20_000u32 {
            let mut hand = CardSet::EMPTY;
            for _ in 0..(round % 27) {
                let card = Card::from_index(rng.below(Card::COUNT as u32) as usize).unwrap();
                hand.insert(card);
            }
            let estimates = Estimates::new(hand);
            for &trump in &trumps {
                assert_eq!(
                    estimates.under(trump).to_bits(),
                    estimate_by_card(hand, trump).to_bits(),
                    "{hand} {trump:?}"
                );
            }
        }
    }

    #[test]
    fn estimates_count_top_cards_and_long_trumps() {
        let hand: CardSet = "AS KS 2S AH 2H 3H 4H 5H 6H".parse().unwrap();
        let e = estimate(hand, Trump::Suit(Suit::Hearts));
        assert!((e - (1.0 + 0.7 + 1.0 + 0.8 * 3.0)).abs() < 1e-4, "{e}");
    }
}
