//! `register!`: from one line per game (`module::Type`), the game modules,
//! [`Variant`](super::Variant) and [`AnyGame`](super::AnyGame) with its
//! delegation. Each game module provides `TITLE` (one line describing the
//! game), `OPTIONS` (its option table) and `Type::new(&Options)`; its name is
//! the module's name.

macro_rules! register {
    ($($module:ident :: $game:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// The games the engine plays.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Variant {
            $(
                #[doc = concat!("[`", stringify!($game), "`](", stringify!($module), "::",
                    stringify!($game), ") (`", stringify!($module), "`).")]
                $game,
            )+
        }

        impl Variant {
            /// Every game, in the order `whistle games` lists them.
            pub const ALL: [Variant; [$(stringify!($game)),+].len()] = [$(Variant::$game),+];

            /// The game's canonical name (e.g. `israeli`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(Variant::$game => stringify!($module),)+
                }
            }

            /// One line describing the game.
            pub const fn title(self) -> &'static str {
                match self {
                    $(Variant::$game => $module::TITLE,)+
                }
            }

            /// The options the game accepts, with defaults.
            pub fn option_specs(self) -> &'static [crate::OptionSpec] {
                match self {
                    $(Variant::$game => $module::OPTIONS,)+
                }
            }

            /// A new match of this game under `options`.
            ///
            /// # Errors
            /// [`OptionError`](crate::OptionError) for an unknown option or a
            /// bad value.
            pub fn new_game(
                self,
                options: &crate::Options,
            ) -> Result<AnyGame, crate::OptionError> {
                Ok(match self {
                    $(Variant::$game => AnyGame::$game($module::$game::new(options)?),)+
                })
            }
        }

        /// Any game, chosen at run time; implements [`Game`](crate::Game) by
        /// delegation.
        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyGame {
            $(
                #[doc = concat!("[`", stringify!($game), "`](", stringify!($module), "::",
                    stringify!($game), ").")]
                $game($module::$game),
            )+
        }

        macro_rules! delegate {
            ($self:ident, $g:ident => $e:expr) => {
                match $self {
                    $(AnyGame::$game($g) => $e,)+
                }
            };
        }
    };
}
