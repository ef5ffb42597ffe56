//! Helpers shared by the integration tests.
//!
//! * [`option_sets`]: the option sets every game is tested under, from the
//!   game's own folder (`src/games/<game>/testdata/options.txt`). A game
//!   without the file fails every generic suite with a message saying where
//!   to add it.
//! * [`Rng`]: a tiny seeded generator (SplitMix64) for the tests' own choices,
//!   independent of the dealing code under test.
//! * [`Driver`]: plays a match from a seed and records, per deal, the deck
//!   order and the actions, so that the match can be replayed exactly, or
//!   replayed with hidden cards remapped ([`replay`]).
//! * [`action_universe`] and [`random_action`]: every shape of `Action`, for
//!   rejection tests.
//! * [`golden_lines`]: the dealing golden vectors as text, in exactly the
//!   format `docs/dealing.py` prints.

#![allow(dead_code)]

use whistle_rules::{
    Action, AnyGame, Card, CardSet, Exchange, Feat, Game, IllegalAction, MAX_SEATS, Options, Rank,
    Seat, Status, Strain, Target, Variant, Vocabulary,
    dealing::{self, Domain, Seed, Shuffler},
    decks,
};

/// A game's test data file, `src/games/<game>/testdata/<file>`: its lines
/// without comments (`#`) and blank lines, each split into words.
///
/// # Panics
/// If the file is missing, with a message saying where it belongs.
pub fn game_testdata(variant: Variant, file: &str) -> Vec<Vec<String>> {
    let path = testdata_dir(variant).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "game `{variant}` has no {}: {e}; every game's folder holds testdata/{file}",
            path.display()
        )
    });
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The folder of `variant`'s test data.
pub fn testdata_dir(variant: Variant) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("src/games")
        .join(variant.name())
        .join("testdata")
}

/// The option sets each game is tested under (`key=value` strings), from
/// its `testdata/options.txt`. `option_table_covers_every_game_and_option`
/// in `conformance.rs` requires every option key a game declares to be given
/// in at least one of its sets.
pub fn option_sets(variant: Variant) -> Vec<Vec<String>> {
    let sets = game_testdata(variant, "options.txt");
    assert!(
        !sets.is_empty(),
        "{variant}: testdata/options.txt has no option set"
    );
    sets
}

/// One game under one option set.
#[derive(Debug, Clone)]
pub struct Case {
    /// The game.
    pub variant: Variant,
    /// The options as given.
    pub options: Options,
    /// `game key=value ...`, for messages.
    pub label: String,
    /// The game's vocabulary under these options (`Game::vocabulary`).
    pub vocabulary: Vocabulary,
}

/// Every game in `Variant::ALL` under every one of its option sets.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for variant in Variant::ALL {
        for set in option_sets(variant) {
            let options = Options::parse(&set).expect("well-formed option set");
            let game = variant
                .new_game(&options)
                .unwrap_or_else(|e| panic!("{variant} {set:?}: {e}"));
            out.push(Case {
                variant,
                label: format!("{variant} {}", set.join(" ")),
                options,
                vocabulary: game.vocabulary(),
            });
        }
    }
    out
}

/// Whether the tests run in CI (`CI=true`), where sizes may be smaller.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// SplitMix64: small, fast, seeded; good enough to pick test moves.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (tiny modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    /// A random element.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }

    /// Shuffles `items` in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// The deck order and the actions of one deal, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealRecord {
    /// The deck order given to `Game::deal` (top first).
    pub order: Vec<Card>,
    /// Every accepted action of the deal, with its seat.
    pub actions: Vec<(Seat, Action)>,
}

/// Plays a match from a seed and records every deal and action.
#[derive(Debug, Clone)]
pub struct Driver {
    /// The game.
    pub variant: Variant,
    /// Its options.
    pub options: Options,
    /// The match seed (deals are dealt from it as `dealing::deal_if_needed` does).
    pub seed: Seed,
    /// The match.
    pub game: AnyGame,
    /// One record per deal so far.
    pub deals: Vec<DealRecord>,
}

impl Driver {
    /// A new match of `case` with match seed `Seed::from_u64(seed)`.
    pub fn new(case: &Case, seed: u64) -> Driver {
        Driver {
            variant: case.variant,
            options: case.options.clone(),
            seed: Seed::from_u64(seed),
            game: case.variant.new_game(&case.options).expect("valid options"),
            deals: Vec::new(),
        }
    }

    /// If the game waits for a deal, deals it from the match seed and records
    /// it; returns whether it dealt.
    pub fn deal_if_needed(&mut self) -> bool {
        if self.game.status() != Status::Deal {
            return false;
        }
        let seed = dealing::deal_seed(self.seed, self.game.deals());
        let order = dealing::deck_order(seed, self.game.deck());
        self.game.deal(&order).expect("the game's own deck deals");
        self.deals.push(DealRecord {
            order: order.to_vec(),
            actions: Vec::new(),
        });
        true
    }

    /// Applies `action` by `seat` through the checked `Game::apply` and
    /// records it if accepted.
    ///
    /// # Errors
    /// The game's rejection.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        self.game.apply(seat, action)?;
        self.deals
            .last_mut()
            .expect("actions come after a deal")
            .actions
            .push((seat, action));
        Ok(())
    }

    /// One step of a uniformly random match: a deal if one is needed, else a
    /// random seat of `to_act` plays a uniformly random legal action.
    /// Returns the action taken, or `None` for a deal or a finished match.
    pub fn step_random(&mut self, rng: &mut Rng) -> Option<(Seat, Action)> {
        self.step(rng, Policy::Uniform)
    }

    /// One step under `policy`: a deal if one is needed, else a random seat
    /// of `to_act` plays a legal action chosen by `policy`.
    pub fn step(&mut self, rng: &mut Rng, policy: Policy) -> Option<(Seat, Action)> {
        if self.game.is_over() || self.deal_if_needed() {
            return None;
        }
        let to_act: Vec<Seat> = self.game.to_act().iter().collect();
        let seat = rng.pick(&to_act);
        let legal = self.game.legal_actions(seat);
        let action = policy.choose(&legal, rng);
        self.apply(seat, action)
            .unwrap_or_else(|e| panic!("a legal action was refused: {e}"));
        Some((seat, action))
    }
}

/// How a random test player picks among the legal actions.
///
/// Uniform play almost never passes in an auction with 45 bids on offer, so
/// the rarer paths (Israeli frisches and misdeals) need the biased policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Uniform over the legal actions.
    Uniform,
    /// A uniform kind of action (`ActionKind`), then uniform within it.
    ByKind,
    /// `pass` with probability 9/10 when legal, else uniform.
    Passive,
}

impl Policy {
    /// The three policies in turn, by `n`.
    pub fn nth(n: u64) -> Policy {
        [Policy::Uniform, Policy::ByKind, Policy::Passive][(n % 3) as usize]
    }

    /// A legal action from the non-empty `legal`.
    pub fn choose(self, legal: &[Action], rng: &mut Rng) -> Action {
        match self {
            Policy::Uniform => rng.pick(legal),
            Policy::ByKind => {
                let mut kinds: Vec<_> = legal.iter().map(|a| a.kind()).collect();
                kinds.sort();
                kinds.dedup();
                let kind = rng.pick(&kinds);
                let of_kind: Vec<Action> =
                    legal.iter().copied().filter(|a| a.kind() == kind).collect();
                rng.pick(&of_kind)
            }
            Policy::Passive => {
                if legal.contains(&Action::Pass) && rng.chance(9, 10) {
                    Action::Pass
                } else {
                    rng.pick(legal)
                }
            }
        }
    }
}

/// Replays a match from scratch: deals `deals[i].order` and applies its
/// actions through the checked `Game::apply`, in order.
///
/// # Errors
/// A description of the first deal or action the game refuses.
pub fn replay(
    variant: Variant,
    options: &Options,
    deals: &[DealRecord],
) -> Result<AnyGame, String> {
    let mut game = variant.new_game(options).map_err(|e| e.to_string())?;
    for (i, deal) in deals.iter().enumerate() {
        game.deal(&deal.order)
            .map_err(|e| format!("deal {i}: {e}"))?;
        for &(seat, action) in &deal.actions {
            game.apply(seat, action)
                .map_err(|e| format!("deal {i}: {e}"))?;
        }
    }
    Ok(game)
}

/// A map of cards (identity outside its domain).
#[derive(Debug, Clone)]
pub struct CardMap([u8; Card::COUNT]);

impl CardMap {
    /// The identity.
    pub fn identity() -> CardMap {
        let mut m = [0u8; Card::COUNT];
        for (i, x) in m.iter_mut().enumerate() {
            *x = i as u8;
        }
        CardMap(m)
    }

    /// A random permutation of `cards`, within classes given by `class`
    /// (cards of different classes never map to each other).
    pub fn random_within<K: PartialEq + Copy>(
        cards: CardSet,
        class: impl Fn(Card) -> K,
        rng: &mut Rng,
    ) -> CardMap {
        let mut map = CardMap::identity();
        let all: Vec<Card> = cards.iter().collect();
        let mut done = CardSet::EMPTY;
        for &c in &all {
            if done.contains(c) {
                continue;
            }
            let k = class(c);
            let group: Vec<Card> = all.iter().copied().filter(|&d| class(d) == k).collect();
            let mut image = group.clone();
            rng.shuffle(&mut image);
            for (from, to) in group.iter().zip(&image) {
                map.0[from.index()] = to.index() as u8;
                done.insert(*from);
            }
        }
        map
    }

    /// The image of `card`.
    pub fn card(&self, card: Card) -> Card {
        Card::from_index(self.0[card.index()] as usize).expect("a card index")
    }

    /// The action with its card (if any) mapped.
    pub fn action(&self, action: Action) -> Action {
        match action.card() {
            Some(c) => action.with_card(self.card(c)),
            None => action,
        }
    }

    /// The deal with every card of its order and actions mapped.
    pub fn deal(&self, deal: &DealRecord) -> DealRecord {
        DealRecord {
            order: deal.order.iter().map(|&c| self.card(c)).collect(),
            actions: deal
                .actions
                .iter()
                .map(|&(s, a)| (s, self.action(a)))
                .collect(),
        }
    }
}

/// The class within which an unseen card may be re-dealt: its printed suit,
/// jokers a class of their own, and each nine a class of its own (Yogi's
/// nines leave their printed suit when a nine or the joker is turned up, Y2,
/// so a nine swapped with another card of its suit could change who may
/// follow what).
pub fn suit_class(card: Card) -> u8 {
    match (card.suit(), card.rank()) {
        (None, _) => 4,
        (Some(s), Some(Rank::Nine)) => 5 + s as u8,
        (Some(s), _) => s as u8,
    }
}

/// Whether `text` contains `word` delimited by non-alphanumeric characters.
pub fn contains_word(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(word).any(|(i, _)| {
        let before = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        let end = i + word.len();
        let after = end == bytes.len() || !bytes[end].is_ascii_alphanumeric();
        before && after
    })
}

fn all_cards() -> impl Iterator<Item = Card> {
    (0..Card::COUNT).map(|i| Card::from_index(i).expect("a card index"))
}

fn targets() -> Vec<Target> {
    let mut t = vec![Target::Game];
    t.extend(Feat::ALL.map(Target::Feat));
    t
}

/// Every action whose payloads are in the range the text notation can write
/// (numbers up to 99; seats up to 12): each card with each card verb, every
/// keyword, every strain and target, and numbers `0..=max_number`.
pub fn action_universe(max_number: u8) -> Vec<Action> {
    let mut v = vec![
        Action::Pass,
        Action::OpenNull,
        Action::Declare,
        Action::Reveal,
        Action::No,
        Action::Vote(true),
        Action::Vote(false),
    ];
    for c in all_cards() {
        v.extend([
            Action::Play(c),
            Action::Give(c),
            Action::Place(c),
            Action::Discard(c),
        ]);
    }
    for n in 0..=max_number {
        v.extend([
            Action::Bid(n),
            Action::Null(n),
            Action::DoubleBid(n),
            Action::DoubleNull(n),
            Action::HandSize(n),
            Action::Count(n),
        ]);
        for strain in Strain::ALL {
            v.push(Action::Contract { tricks: n, strain });
        }
    }
    v.extend((0..MAX_SEATS).map(|i| Action::Leader(Seat::new(i))));
    v.extend(Exchange::ALL.map(Action::Exchange));
    v.extend(Feat::ALL.map(Action::Announce));
    for t in targets() {
        v.push(Action::Double(t));
        v.push(Action::Redouble(t));
    }
    v
}

/// A random action of any shape with a random payload (numbers over the
/// whole `u8` range half of the time, else small ones).
pub fn random_action(rng: &mut Rng) -> Action {
    let n = if rng.chance(1, 2) {
        rng.byte()
    } else {
        rng.below(30) as u8
    };
    let card = Card::from_index(rng.below(Card::COUNT)).expect("a card index");
    match rng.below(22) {
        0 => Action::Play(card),
        1 => Action::Pass,
        2 => Action::Contract {
            tricks: n,
            strain: rng.pick(&Strain::ALL),
        },
        3 => Action::Bid(n),
        4 => Action::Null(n),
        5 => Action::OpenNull,
        6 => Action::DoubleBid(n),
        7 => Action::DoubleNull(n),
        8 => Action::Give(card),
        9 => Action::Place(card),
        10 => Action::Discard(card),
        11 => Action::Declare,
        12 => Action::Reveal,
        13 => Action::No,
        14 => Action::Leader(Seat::new(rng.below(MAX_SEATS))),
        15 => Action::HandSize(n),
        16 => Action::Count(n),
        17 => Action::Vote(rng.chance(1, 2)),
        18 => Action::Exchange(rng.pick(&Exchange::ALL)),
        19 => Action::Announce(rng.pick(&Feat::ALL)),
        20 => Action::Double(rng.pick(&targets())),
        _ => Action::Redouble(rng.pick(&targets())),
    }
}

/// FNV-1a, to fingerprint long texts compactly.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}

/// The dealing golden vectors, one per line, in exactly the format
/// `docs/dealing.py` prints.
pub fn golden_lines() -> Vec<String> {
    let mut out = Vec::new();
    let one = Seed::from_u64(1);
    out.push(format!("seed from_u64(0) = {}", Seed::from_u64(0)));
    out.push(format!("seed from_u64(1) = {one}"));
    out.push(format!(
        "seed from_u64(18446744073709551615) = {}",
        Seed::from_u64(u64::MAX)
    ));
    for (domain, name, index) in [
        (Domain::Match, "match", 0),
        (Domain::Deal, "deal", 0),
        (Domain::Deal, "deal", 1),
        (Domain::Fallback, "fallback", 0),
        (Domain::Bot, "bot", 3),
        (Domain::Match, "match", (1u64 << 56) - 1),
        (Domain::Round, "round", 1),
    ] {
        out.push(format!(
            "seed from_u64(1).derive({name},{index}) = {}",
            one.derive(domain, index)
        ));
    }
    out.push(format!(
        "seed from_u64(1).derive(match,0).derive(deal,5) = {}",
        one.derive(Domain::Match, 0).derive(Domain::Deal, 5)
    ));

    let mut s = Shuffler::new(Seed::from_u64(0));
    let words: Vec<String> = (0..20).map(|_| format!("{:08x}", s.next_word())).collect();
    out.push(format!("words from_u64(0) = {}", words.join(" ")));
    let mut s = Shuffler::new(one);
    let big = (1u32 << 31) + 1;
    let draws = |s: &mut Shuffler, n: u32, k: usize| {
        (0..k)
            .map(|_| s.below(n).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.push(format!(
        "below from_u64(1) n={big} = {}",
        draws(&mut s, big, 12)
    ));
    out.push(format!("below then n=52 = {}", draws(&mut s, 52, 8)));
    out.push(format!("below then n=3 = {}", draws(&mut s, 3, 8)));

    for (name, deck, match_seed, deal) in [
        ("standard", decks::STANDARD, 0, 0),
        ("standard", decks::STANDARD, 1, 0),
        ("standard", decks::STANDARD, 1, 1),
        ("standard", decks::STANDARD, 2026, 7),
        ("with-one-joker", decks::WITH_ONE_JOKER, 1, 0),
        ("with-two-jokers", decks::WITH_TWO_JOKERS, 1, 0),
        ("with-two-jokers", decks::WITH_TWO_JOKERS, 5, 3),
        ("reduced-ten", decks::reduced(Rank::Ten), 1, 0),
        ("reduced-ten", decks::reduced(Rank::Ten), 9, 9),
    ] {
        let order = dealing::deck_order(dealing::deal_seed(Seed::from_u64(match_seed), deal), deck);
        let cards: Vec<String> = order.iter().map(Card::to_string).collect();
        out.push(format!(
            "deck {name} match=from_u64({match_seed}) deal={deal} = {}",
            cards.join(" ")
        ));
    }
    out
}
