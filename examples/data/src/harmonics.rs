//! Tidal constituents, their angular speeds, and nodal corrections.
//!
//! Speeds are in degrees per mean solar hour. Nodal corrections follow the
//! usual first-order formulas in the longitude of the Moon's ascending node
//! `N`, which completes a cycle in about 18.61 years.

/// The constituents this crate knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Constituent {
    /// Principal lunar semidiurnal.
    M2,
    /// Principal solar semidiurnal.
    S2,
    /// Larger lunar elliptic semidiurnal.
    N2,
    /// Luni-solar semidiurnal.
    K2,
    /// Luni-solar diurnal.
    K1,
    /// Principal lunar diurnal.
    O1,
    /// Principal solar diurnal.
    P1,
    /// Shallow-water overtide of M2.
    M4,
}

impl Constituent {
    /// Angular speed in degrees per hour.
    pub fn speed_deg_per_hour(self) -> f64 {
        match self {
            Self::M2 => 28.984_104_2,
            Self::S2 => 30.0,
            Self::N2 => 28.439_729_5,
            Self::K2 => 30.082_137_3,
            Self::K1 => 15.041_068_6,
            Self::O1 => 13.943_035_6,
            Self::P1 => 14.958_931_4,
            Self::M4 => 57.968_208_4,
        }
    }

    /// Parses a constituent name such as `"M2"`, case-insensitively.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name.to_ascii_uppercase().as_str() {
            "M2" => Self::M2,
            "S2" => Self::S2,
            "N2" => Self::N2,
            "K2" => Self::K2,
            "K1" => Self::K1,
            "O1" => Self::O1,
            "P1" => Self::P1,
            "M4" => Self::M4,
            _ => return None,
        })
    }
}

/// Nodal factor `f` and the phase correction `V0 + u`, in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodalCorrection {
    /// Amplitude factor, close to 1.
    pub f: f64,
    /// Equilibrium argument plus nodal phase, degrees.
    pub v0_plus_u_deg: f64,
}

/// Longitude of the Moon's ascending node, degrees, `hours` after 1900-01-01.
fn node_longitude_deg(hours: f64) -> f64 {
    let days = hours / 24.0;
    (259.157 - 0.052_953_76 * days).rem_euclid(360.0)
}

/// First-order nodal correction for `constituent` at `hours` after the epoch.
pub fn nodal_correction(constituent: Constituent, hours: f64) -> NodalCorrection {
    let n = node_longitude_deg(hours).to_radians();
    let (f, u) = match constituent {
        Constituent::M2 | Constituent::N2 => (1.0 - 0.037 * n.cos(), -2.1 * n.sin()),
        Constituent::K1 => (1.006 + 0.115 * n.cos(), -8.9 * n.sin()),
        Constituent::O1 => (1.009 + 0.187 * n.cos(), 10.8 * n.sin()),
        Constituent::K2 => (1.024 + 0.286 * n.cos(), -17.7 * n.sin()),
        Constituent::M4 => {
            let f2 = 1.0 - 0.037 * n.cos();
            (f2 * f2, -4.2 * n.sin())
        }
        Constituent::S2 | Constituent::P1 => (1.0, 0.0),
    };
    let v0 = (constituent.speed_deg_per_hour() * hours).rem_euclid(360.0);
    NodalCorrection { f, v0_plus_u_deg: v0 + u }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solar_constituents_have_no_nodal_modulation() {
        let c = nodal_correction(Constituent::S2, 12_345.0);
        assert_eq!(c.f, 1.0);
    }

    #[test]
    fn names_parse_case_insensitively() {
        assert_eq!(Constituent::parse("m2"), Some(Constituent::M2));
        assert_eq!(Constituent::parse("Z9"), None);
    }
}
