//! [`CompactionPlan`]: which messages stay verbatim (head and tail), which
//! are reduced, which are summarized, and the role of the summary. Pure
//! index arithmetic over the conversation, O(n) in messages and characters.

use std::ops::Range;

use crate::chat::{Message, Role};
use crate::compact::config::CompressionSettings;
use crate::compact::prompt_tokens::{PromptTokens, Scale};
use crate::compact::reduce::{Reduction, plan_reductions};
use crate::compact::token_budget::TokenBudget;
use crate::compact::tool_pairs::ToolPairs;

/// How many cut points the role fix may move the tail boundary, each way.
const ROLE_FIX_STEPS: usize = 3;

/// The plan of one compaction, made by
/// [`Compactor::plan`](crate::compact::Compactor::plan).
///
/// The result is `head ++ [summary] ++ tail`, or `head ++ reduced middle ++
/// tail` when the reductions alone reach the target. Sizes are in estimate
/// units (`ceil(chars / 4)` plus the per-message overhead); see
/// [`PromptTokens`] for how a reported count is converted.
///
/// Guarantees: head and tail boundaries never separate a tool call from
/// its results; leading system messages are in the head; the last
/// `min_tail_messages` messages are in the verbatim tail; the latest user
/// message is in the head or the tail, untouched (reductions only touch
/// tool outputs).
///
/// ```
/// use budget::compact::{CompactionConfig, Compactor, PromptTokens};
/// use budget::chat::{Message, Role};
///
/// let mut messages = vec![Message::system("You are terse.")];
/// for i in 0..40 {
///     messages.push(Message::user(format!("question {i}: {}", "words ".repeat(100))));
///     messages.push(Message::assistant(format!("answer {i}: {}", "words ".repeat(100))));
/// }
/// let compactor = Compactor::new(&CompactionConfig::default(), Some(8_000))?;
/// let plan = compactor.plan(&messages, PromptTokens::Estimate);
/// assert!(plan.needed());
/// assert_eq!(plan.head(), 0..3); // system + first question and answer
/// assert_eq!(plan.tail().end, messages.len());
/// assert_eq!(messages[plan.tail().start].role, Role::Assistant); // roles alternate around the summary
/// assert_eq!(plan.summary_role(), Role::User);
/// # Ok::<(), budget::compact::CompactionConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct CompactionPlan {
    pub(crate) needed: bool,
    pub(crate) scale: Scale,
    pub(crate) tokens_before: u64,
    pub(crate) threshold_tokens: u64,
    pub(crate) target_tokens: u64,
    pub(crate) target_units: u64,
    pub(crate) len: usize,
    pub(crate) head_end: usize,
    pub(crate) tail_start: usize,
    pub(crate) verbatim_start: usize,
    pub(crate) head_units: u64,
    pub(crate) tail_units: u64,
    pub(crate) summary_units: u64,
    pub(crate) summary_role: Role,
    pub(crate) role_conflict: bool,
    pub(crate) previous_summary: Option<usize>,
    pub(crate) reductions: Vec<Reduction>,
    pub(crate) reduced_units: u64,
}

impl CompactionPlan {
    /// Whether the conversation is above the threshold (and compaction enabled).
    pub fn needed(&self) -> bool {
        self.needed
    }

    /// Size of the conversation, in tokens (estimated or as reported).
    pub fn tokens_before(&self) -> u64 {
        self.tokens_before
    }

    /// Messages kept verbatim at the start.
    pub fn head(&self) -> Range<usize> {
        0..self.head_end
    }

    /// Messages reduced and then, unless the reductions suffice, summarized.
    pub fn middle(&self) -> Range<usize> {
        self.head_end..self.tail_start
    }

    /// Messages kept at the end: from the latest user message (or the
    /// verbatim tail, whichever starts first) to the last message.
    pub fn tail(&self) -> Range<usize> {
        self.tail_start..self.len
    }

    /// The part of the tail kept verbatim, sized by the tail budget. Tool
    /// outputs in the rest of the tail may be reduced like the middle's.
    pub fn verbatim_tail(&self) -> Range<usize> {
        self.verbatim_start..self.len
    }

    /// Index of the summary of an earlier compaction inside the middle, if any.
    pub fn previous_summary(&self) -> Option<usize> {
        self.previous_summary
    }

    /// The role the summary message takes: one that neither neighbour has,
    /// unless [`role_conflict`](Self::role_conflict).
    pub fn summary_role(&self) -> Role {
        self.summary_role
    }

    /// True when no nearby cut point allowed a role different from both
    /// neighbours; the summary is then a user message.
    pub fn role_conflict(&self) -> bool {
        self.role_conflict
    }

    /// Planned replacements of tool outputs in the middle and in the
    /// non-verbatim part of the tail, oldest first.
    pub fn reductions(&self) -> &[Reduction] {
        &self.reductions
    }

    /// Whether the reductions alone bring the conversation to the target,
    /// so no summary is needed.
    pub fn reductions_suffice(&self) -> bool {
        self.reduced_units <= self.target_units
    }

    /// Estimated tokens of head plus tail: what compaction cannot shrink.
    pub fn protected_tokens(&self) -> u64 {
        self.scale
            .to_tokens(self.head_units.saturating_add(self.tail_units))
    }

    /// The bound on the summary message (header, text and overhead), in
    /// estimate units.
    pub fn summary_tokens(&self) -> u64 {
        self.summary_units
    }
}

/// Prefix sums of characters, for the size of any range in O(1).
struct Sizes<'b> {
    prefix_chars: Vec<u64>,
    budget: &'b TokenBudget,
}

impl Sizes<'_> {
    fn units(&self, range: Range<usize>) -> u64 {
        let chars = self.prefix_chars[range.end] - self.prefix_chars[range.start];
        self.budget
            .tokens_for(chars, (range.end - range.start) as u64)
    }
}

/// Inputs of the planner that the compactor validated.
pub(crate) struct PlanInputs<'c> {
    pub(crate) budget: &'c TokenBudget,
    pub(crate) settings: &'c CompressionSettings,
    /// The validated bound on the summary message, in estimate units.
    pub(crate) summary_cap: u64,
}

pub(crate) fn plan(
    inputs: &PlanInputs<'_>,
    messages: &[Message],
    tokens: PromptTokens,
) -> CompactionPlan {
    let budget = inputs.budget;
    let settings = inputs.settings;
    let n = messages.len();

    let mut prefix_chars = Vec::with_capacity(n + 1);
    prefix_chars.push(0u64);
    for m in messages {
        let last = prefix_chars[prefix_chars.len() - 1];
        prefix_chars.push(last.saturating_add(m.char_count()));
    }
    let sizes = Sizes {
        prefix_chars,
        budget,
    };
    let estimated = sizes.units(0..n);
    let scale = Scale::new(tokens, estimated);
    let tokens_before = match tokens {
        PromptTokens::Estimate => estimated,
        PromptTokens::Reported(reported) => reported,
    };
    let needed = budget.needs_compaction_at(tokens_before);
    let target_tokens = budget.compaction_target();
    let target_units = scale.to_estimate(target_tokens);
    let summary_units = inputs.summary_cap.min(target_units / 4);

    let pairs = ToolPairs::new(messages);

    // Head: the first `protect_first_n` messages, stopping before an earlier
    // summary, but always every leading system message; then forward to a
    // safe cut.
    let leading_system = messages
        .iter()
        .take_while(|m| m.role == Role::System)
        .count();
    let first_summary = messages.iter().position(|m| m.reference_only).unwrap_or(n);
    let head_goal = settings
        .protect_first_n
        .min(first_summary)
        .max(leading_system)
        .min(n);
    let head_end = pairs.cut_at_or_after(head_goal);
    let head_units = sizes.units(0..head_end);

    // Verbatim tail: the last `min_tail_messages`, moved back to a safe
    // cut, then grown by whole cut-to-cut units while it fits the budget.
    let tail_budget = settings.tail_tokens.unwrap_or_else(|| {
        target_units
            .saturating_sub(head_units)
            .saturating_sub(summary_units)
    });
    let min_tail_cut = pairs
        .cut_at_or_before(n.saturating_sub(settings.min_tail_messages))
        .max(head_end);
    let mut verbatim_start = min_tail_cut;
    for p in (head_end..min_tail_cut).rev() {
        if !pairs.cut_ok(p) {
            continue;
        }
        if sizes.units(p..n) > tail_budget {
            break;
        }
        verbatim_start = p;
    }
    // The kept tail also reaches back to the latest user message (unless the
    // head holds it); that extension keeps its messages but its tool
    // outputs may be reduced.
    let forced = messages
        .iter()
        .rposition(|m| m.role == Role::User)
        .filter(|&u| u >= head_end)
        .map_or(min_tail_cut, |u| {
            pairs.cut_at_or_before(u).max(head_end).min(min_tail_cut)
        });
    let mut tail_start = verbatim_start.min(forced);

    // The summary must differ in role from both neighbours.
    let mut role_conflict = false;
    let mut summary_role = Role::User;
    if tail_start > head_end {
        // Growing the tail may exceed its budget only when the tail is
        // already all forced (its size is then not the budget's to keep).
        let may_grow_to =
            |start: usize| tail_start == forced || sizes.units(start..n) <= tail_budget;
        match fix_roles(
            messages,
            &pairs,
            (head_end, tail_start, forced),
            may_grow_to,
        ) {
            Some((start, role)) => {
                tail_start = start;
                summary_role = role;
            }
            None => role_conflict = true,
        }
    }
    let tail_units = sizes.units(tail_start..n);

    let middle = head_end..tail_start;
    let previous_summary = middle.rev().find(|&i| messages[i].reference_only);
    let (reductions, saved_chars) = plan_reductions(
        messages,
        head_end..verbatim_start.max(tail_start),
        &pairs,
        budget,
        settings.stub_tool_outputs_over_tokens,
    );
    let reduced_units =
        budget.tokens_for(sizes.prefix_chars[n].saturating_sub(saved_chars), n as u64);

    CompactionPlan {
        needed,
        scale,
        tokens_before,
        threshold_tokens: budget.compaction_threshold(),
        target_tokens,
        target_units,
        len: n,
        head_end,
        tail_start,
        verbatim_start: verbatim_start.max(tail_start),
        head_units,
        tail_units,
        summary_units,
        summary_role,
        role_conflict,
        previous_summary,
        reductions,
        reduced_units,
    }
}

/// A role for a summary between `prev` and `next`: user or assistant, the
/// same as neither, and not assistant right after the start or a system
/// message (many APIs want a user turn first).
fn summary_role_between(prev: Option<Role>, next: Option<Role>) -> Option<Role> {
    [Role::User, Role::Assistant].into_iter().find(|&role| {
        let after_start = matches!(prev, None | Some(Role::System));
        prev != Some(role) && next != Some(role) && !(role == Role::Assistant && after_start)
    })
}

/// A tail start near `tail_start` at which the summary can take a valid
/// role: first shrinking the tail (never past `forced`), then growing it
/// (never into the head, only to starts `may_grow_to` accepts), at most
/// [`ROLE_FIX_STEPS`] cut points each way.
fn fix_roles(
    messages: &[Message],
    pairs: &ToolPairs,
    (head_end, tail_start, forced): (usize, usize, usize),
    may_grow_to: impl Fn(usize) -> bool,
) -> Option<(usize, Role)> {
    let prev = head_end.checked_sub(1).map(|i| messages[i].role);
    let role_at = |start: usize| summary_role_between(prev, messages.get(start).map(|m| m.role));
    if let Some(role) = role_at(tail_start) {
        return Some((tail_start, role));
    }
    let mut start = tail_start;
    for _ in 0..ROLE_FIX_STEPS {
        let next = pairs.cut_at_or_after(start + 1);
        if next > forced {
            break;
        }
        start = next;
        if let Some(role) = role_at(start) {
            return Some((start, role));
        }
    }
    let mut start = tail_start;
    for _ in 0..ROLE_FIX_STEPS {
        let Some(before) = start.checked_sub(1) else {
            break;
        };
        let next = pairs.cut_at_or_before(before);
        if next <= head_end || !may_grow_to(next) {
            break;
        }
        start = next;
        if let Some(role) = role_at(start) {
            return Some((start, role));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ToolCall;
    use crate::compact::config::CompactionConfig;

    fn inputs(config: &CompactionConfig, window: u64) -> (TokenBudget, u64) {
        let budget = TokenBudget::new(config, Some(window)).unwrap();
        let cap = config
            .compression
            .max_summary_tokens
            .min(budget.compaction_target() / 4);
        (budget, cap)
    }

    fn run(config: &CompactionConfig, window: u64, messages: &[Message]) -> CompactionPlan {
        let (budget, cap) = inputs(config, window);
        let inputs = PlanInputs {
            budget: &budget,
            settings: &config.compression,
            summary_cap: cap,
        };
        plan(&inputs, messages, PromptTokens::Estimate)
    }

    fn text(tokens: usize) -> String {
        // 4 chars per token
        "abcd".repeat(tokens)
    }

    #[test]
    fn roles_pick_a_value_neither_neighbour_has() {
        use Role::*;
        assert_eq!(
            summary_role_between(Some(Assistant), Some(Assistant)),
            Some(User)
        );
        assert_eq!(
            summary_role_between(Some(User), Some(User)),
            Some(Assistant)
        );
        assert_eq!(
            summary_role_between(Some(Tool), Some(User)),
            Some(Assistant)
        );
        assert_eq!(summary_role_between(None, Some(Assistant)), Some(User));
        assert_eq!(summary_role_between(Some(Assistant), Some(User)), None);
        assert_eq!(summary_role_between(Some(User), Some(Assistant)), None);
        assert_eq!(summary_role_between(Some(System), Some(User)), None);
    }

    #[test]
    fn head_tail_and_middle_by_hand() {
        // window 8000: target 1600, summary cap min(12000, 400) = 400.
        // Each message: 100 tokens of text + 4 overhead = 104.
        let mut m = vec![Message::system(text(100))];
        for i in 0..20 {
            if i % 2 == 0 {
                m.push(Message::user(text(100)));
            } else {
                m.push(Message::assistant(text(100)));
            }
        }
        // 21 messages, 2184 units > threshold? no: threshold 6800. Plan anyway.
        let p = run(&CompactionConfig::default(), 8_000, &m);
        assert!(!p.needed());
        assert_eq!(p.head(), 0..3);
        // head 312; tail budget 1600 - 312 - 400 = 888 → 8 messages (832).
        // m[13] (user: index 13 = i 12, even) precedes a head ending in
        // assistant (m[2]): conflict, so the tail shrinks by one to m[14]
        // (assistant) and the summary is a user message.
        assert_eq!(p.tail(), 14..21);
        assert_eq!(p.summary_role(), Role::User);
        assert_eq!(p.summary_tokens(), 400);
    }

    #[test]
    fn the_latest_user_message_is_always_in_the_tail() {
        let mut m = vec![
            Message::system("s"),
            Message::user("first"),
            Message::assistant("ok"),
        ];
        m.push(Message::user("the real question"));
        for i in 0..30 {
            let id = format!("c{i}");
            m.push(Message::assistant_with_tool_calls(
                "",
                vec![ToolCall::new(&id, "t", "{}")],
            ));
            m.push(Message::tool_result(&id, text(200)));
        }
        let p = run(&CompactionConfig::default(), 8_000, &m);
        assert!(p.tail().start <= 3);
        assert_eq!(p.head(), 0..3);
    }

    #[test]
    fn a_task_given_once_in_the_head_does_not_freeze_an_agent_run() {
        // sys, task, then 60 tool rounds: the latest user message is in the
        // head, so the middle is not empty.
        let mut m = vec![Message::system("s"), Message::user("do the task")];
        for i in 0..60 {
            let id = format!("c{i}");
            m.push(Message::assistant_with_tool_calls(
                "",
                vec![ToolCall::new(&id, "t", "{}")],
            ));
            m.push(Message::tool_result(&id, text(100)));
        }
        let p = run(&CompactionConfig::default(), 8_000, &m);
        // head goal 3 cuts a call group at 2..4: the head absorbs it
        assert_eq!(p.head(), 0..4);
        assert!(p.middle().len() > 50, "middle {:?}", p.middle());
        assert_eq!(p.tail().end, m.len());
        // head ends with a tool result, the tail starts with a call
        assert_eq!(m[p.tail().start].role, Role::Assistant);
        assert_eq!(p.summary_role(), Role::User);
    }

    #[test]
    fn the_head_absorbs_a_tool_group_it_cuts() {
        let m = vec![
            Message::system("s"),
            Message::user("u"),
            Message::assistant_with_tool_calls("", vec![ToolCall::new("a", "t", "{}")]),
            Message::tool_result("a", "r"),
            Message::assistant("done"),
            Message::user("next"),
        ];
        let mut config = CompactionConfig::default();
        config.compression.protect_first_n = 3;
        let p = run(&config, 8_000, &m);
        assert_eq!(p.head(), 0..4);
    }

    #[test]
    fn an_earlier_summary_ends_the_head_and_is_found_in_the_middle() {
        let mut m = vec![
            Message::system("s"),
            Message::user("old summary").with_reference_only(true),
        ];
        for i in 0..40 {
            m.push(Message::assistant(format!("a{i} {}", text(100))));
            m.push(Message::user(format!("u{i} {}", text(100))));
        }
        let p = run(&CompactionConfig::default(), 8_000, &m);
        assert_eq!(p.head(), 0..1);
        assert_eq!(p.previous_summary(), Some(1));
    }

    #[test]
    fn reported_counts_decide_and_rescale() {
        let m = vec![Message::user(text(10)); 10]; // 140 units
        let (budget, cap) = inputs(&CompactionConfig::default(), 8_000);
        let config = CompactionConfig::default();
        let inputs = PlanInputs {
            budget: &budget,
            settings: &config.compression,
            summary_cap: cap,
        };
        let p = plan(&inputs, &m, PromptTokens::Reported(7_000));
        assert!(p.needed());
        assert_eq!(p.tokens_before(), 7_000);
        // target 1600 tokens ↔ 1600·140/7000 = 32 units; summary 32/4 = 8
        assert_eq!(p.target_units, 32);
        assert_eq!(p.summary_tokens(), 8);
    }

    #[test]
    fn empty_conversations_plan_nothing() {
        let p = run(&CompactionConfig::default(), 8_000, &[]);
        assert!(!p.needed());
        assert_eq!((p.head(), p.middle(), p.tail()), (0..0, 0..0, 0..0));
    }
}
