//! Stations: where predictions are made, with their harmonic constants.

use crate::harmonics::Constituent;
use crate::units::Metres;

/// One constituent's constants at a station.
#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    /// Which constituent.
    pub constituent: Constituent,
    /// Amplitude `H`.
    pub amplitude: Metres,
    /// Phase lag `g`, degrees.
    pub phase_deg: f64,
}

/// A tide station.
#[derive(Debug, Clone, PartialEq)]
pub struct Station {
    /// Lower-case identifier, e.g. `brest`.
    pub name: String,
    /// Degrees north.
    pub latitude: f64,
    /// Degrees east.
    pub longitude: f64,
    /// Mean sea level above chart datum.
    pub mean_level: Metres,
    /// Harmonic constants.
    pub constituents: Vec<Constant>,
}

/// All known stations.
#[derive(Debug, Default)]
pub struct Catalogue {
    stations: Vec<Station>,
}

impl Catalogue {
    /// Loads the catalogue from a YAML file (see `config/stations.yaml`).
    pub fn load(path: &str) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        parse_yaml(&text)
    }

    /// The station called `name`, ignoring case.
    pub fn find(&self, name: &str) -> Option<&Station> {
        self.stations.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Every station, in file order.
    pub fn iter(&self) -> impl Iterator<Item = &Station> {
        self.stations.iter()
    }
}

/// A deliberately small parser for the subset of YAML the config uses.
fn parse_yaml(text: &str) -> Result<Catalogue, String> {
    let mut stations = Vec::new();
    let mut current: Option<Station> = None;
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(name) = trimmed.strip_prefix("- name:") {
            if let Some(done) = current.take() {
                stations.push(done);
            }
            current = Some(Station {
                name: name.trim().to_owned(),
                latitude: 0.0,
                longitude: 0.0,
                mean_level: Metres(0.0),
                constituents: Vec::new(),
            });
            continue;
        }
        let station = current.as_mut().ok_or(format!("line {}: value outside a station", number + 1))?;
        let (key, value) = trimmed.split_once(':').ok_or(format!("line {}: expected key: value", number + 1))?;
        let value = value.trim();
        match key.trim() {
            "latitude" => station.latitude = value.parse().map_err(|_| format!("line {}: bad latitude", number + 1))?,
            "longitude" => station.longitude = value.parse().map_err(|_| format!("line {}: bad longitude", number + 1))?,
            "mean_level" => station.mean_level = Metres(value.parse().map_err(|_| format!("line {}: bad level", number + 1))?),
            other => {
                let Some(constituent) = Constituent::parse(other) else {
                    return Err(format!("line {}: unknown key {other}", number + 1));
                };
                let (amplitude, phase) = value
                    .trim_matches(|c| c == '[' || c == ']')
                    .split_once(',')
                    .ok_or(format!("line {}: expected [amplitude, phase]", number + 1))?;
                station.constituents.push(crate::station::Constant {
                    constituent,
                    amplitude: Metres(amplitude.trim().parse().map_err(|_| format!("line {}: bad amplitude", number + 1))?),
                    phase_deg: phase.trim().parse().map_err(|_| format!("line {}: bad phase", number + 1))?,
                });
            }
        }
    }
    stations.extend(current);
    Ok(Catalogue { stations })
}
