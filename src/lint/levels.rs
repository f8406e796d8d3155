//! The level each rule reports at in one run: the catalogue's defaults,
//! then the configuration file's, then the command line's.

use crate::rules::{Level, Rule, CATALOGUE};

/// Rule levels after configuration: the catalogue's defaults plus overrides.
#[derive(Debug, Clone)]
pub struct RuleLevels {
    /// Each rule's level, at its catalogue index: looked up for every
    /// finding.
    levels: Vec<Level>,
    /// How many of `levels` are on: whether any is on is asked for every
    /// URL (see [`Self::all_off`]).
    on: usize,
}

impl Default for RuleLevels {
    /// The catalogue's default levels.
    fn default() -> Self {
        let levels: Vec<Level> = CATALOGUE.iter().map(|info| info.default_level).collect();
        let on = levels.iter().filter(|&&level| level != Level::Off).count();
        RuleLevels { levels, on }
    }
}

impl RuleLevels {
    /// Set `rule` to `level`, replacing its default.
    pub fn set(&mut self, rule: Rule, level: Level) {
        let was = std::mem::replace(&mut self.levels[rule as usize], level);
        self.on = self.on + usize::from(level != Level::Off) - usize::from(was != Level::Off);
    }

    /// The level `rule` reports at.
    pub fn level(&self, rule: Rule) -> Level {
        self.levels[rule as usize]
    }

    /// Whether every rule is off, so that nothing is ever reported.
    pub(crate) fn all_off(&self) -> bool {
        self.on == 0
    }

    /// Levels with every rule off.
    #[cfg(feature = "cli")]
    pub(crate) fn silent() -> RuleLevels {
        RuleLevels {
            levels: vec![Level::Off; CATALOGUE.len()],
            on: 0,
        }
    }
}

/// Rule choices given on a command line (or by an editor or a script),
/// which override the configuration file's levels.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleOverrides {
    /// Report only these rules; one off by default is turned on as a warning.
    pub select: Vec<Rule>,
    /// Report these rules as warnings, whatever their level.
    pub warn: Vec<Rule>,
    /// Never report these rules.
    pub ignore: Vec<Rule>,
}

impl RuleLevels {
    /// These levels narrowed by `overrides`: `select`, then `warn`, then
    /// `ignore`, so that flags always override the file and `ignore` has the
    /// last word.
    pub fn overridden(mut self, overrides: &RuleOverrides) -> RuleLevels {
        if !overrides.select.is_empty() {
            for rule in Rule::all() {
                if !overrides.select.contains(&rule) {
                    self.set(rule, Level::Off);
                } else if self.level(rule) == Level::Off {
                    self.set(rule, Level::Warning);
                }
            }
        }
        for &rule in &overrides.warn {
            self.set(rule, Level::Warning);
        }
        for &rule in &overrides.ignore {
            self.set(rule, Level::Off);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overrides(select: &[Rule], ignore: &[Rule], warn: &[Rule]) -> RuleOverrides {
        RuleOverrides {
            select: select.to_vec(),
            ignore: ignore.to_vec(),
            warn: warn.to_vec(),
        }
    }

    #[test]
    fn select_turns_off_the_rest_and_on_what_is_off() {
        let select = overrides(&[Rule::BareUrl, Rule::UnsafeChar], &[], &[]);
        let levels = RuleLevels::default().overridden(&select);
        assert_eq!(levels.level(Rule::BareUrl), Level::Warning);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Error);
        assert_eq!(levels.level(Rule::BadPort), Level::Off);
        let ignore = overrides(&[], &[Rule::HyphenBreak], &[]);
        let levels = RuleLevels::default().overridden(&ignore);
        assert_eq!(levels.level(Rule::HyphenBreak), Level::Off);
        assert_eq!(levels.level(Rule::BadPort), Level::Error);
    }

    #[test]
    fn silent_levels_are_all_off_and_default_ones_are_not() {
        assert!(RuleLevels::silent().all_off());
        assert!(!RuleLevels::default().all_off());
        let mut one_on = RuleLevels::silent();
        one_on.set(Rule::UnusedSuppression, Level::Warning);
        assert!(!one_on.all_off());
        one_on.set(Rule::UnusedSuppression, Level::Error);
        one_on.set(Rule::UnusedSuppression, Level::Off);
        assert!(one_on.all_off());
        let mut all_turned_off = RuleLevels::default();
        for rule in Rule::all() {
            all_turned_off.set(rule, Level::Off);
        }
        assert!(all_turned_off.all_off());
    }

    #[test]
    fn flags_override_the_file() {
        let mut file = RuleLevels::default();
        file.set(Rule::UnsafeChar, Level::Off);
        file.set(Rule::BareUrl, Level::Error);
        file.set(Rule::SchemeCase, Level::Error);
        let flags = overrides(&[], &[Rule::BareUrl], &[Rule::UnsafeChar, Rule::SchemeCase]);
        let levels = file.clone().overridden(&flags);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Warning);
        assert_eq!(levels.level(Rule::SchemeCase), Level::Warning);
        assert_eq!(levels.level(Rule::BareUrl), Level::Off);
        // --select keeps the file's level for a selected rule that is on.
        let select = overrides(&[Rule::BareUrl, Rule::UnsafeChar], &[], &[]);
        let levels = file.overridden(&select);
        assert_eq!(levels.level(Rule::BareUrl), Level::Error);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Warning);
        assert_eq!(levels.level(Rule::SchemeCase), Level::Off);
    }
}
