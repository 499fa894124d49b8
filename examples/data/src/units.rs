//! Units: metres and feet, and angle normalisation.

/// A length in metres.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct Metres(pub f64);

/// A length in international feet.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct Feet(pub f64);

const METRES_PER_FOOT: f64 = 0.3048;

impl From<Feet> for Metres {
    fn from(f: Feet) -> Self {
        Metres(f.0 * METRES_PER_FOOT)
    }
}

impl From<Metres> for Feet {
    fn from(m: Metres) -> Self {
        Feet(m.0 / METRES_PER_FOOT)
    }
}

/// `degrees` reduced to `0.0..360.0`.
pub fn normalise_deg(degrees: f64) -> f64 {
    degrees.rem_euclid(360.0)
}
