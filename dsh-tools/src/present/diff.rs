//! Line diffs for showing a [`FileDiff`](crate::present::FileDiff) as text: the edit script between two
//! texts (a longest common subsequence of their lines) grouped into unified-diff hunks with
//! context lines around each change.
//!
//! Only the plain-text card renderer uses it. Texts whose changed middle is too large for the
//! quadratic table are shown as one replacement (every old line removed, every new line added):
//! still a correct diff, only not a minimal one.

/// Cells of the common-subsequence table allowed before a change is shown as one replacement.
const TABLE_LIMIT: usize = 4_000_000;

/// One line of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DiffLine<'a> {
    /// In both texts.
    Context(&'a str),
    /// Only in the old text.
    Removed(&'a str),
    /// Only in the new text.
    Added(&'a str),
}

/// A run of changes with its context, as a unified diff shows it after `@@ -a,b +c,d @@`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Hunk<'a> {
    /// 1-based first old line (the line before, or 0, when the hunk removes nothing).
    pub(crate) old_start: usize,
    pub(crate) old_len: usize,
    /// 1-based first new line (the line before, or 0, when the hunk adds nothing).
    pub(crate) new_start: usize,
    pub(crate) new_len: usize,
    pub(crate) lines: Vec<DiffLine<'a>>,
}

impl Hunk<'_> {
    /// The `@@ -a,b +c,d @@` header; a length of one is left out, as `diff -u` does.
    pub(crate) fn header(&self) -> String {
        fn range(start: usize, len: usize) -> String {
            if len == 1 {
                start.to_string()
            } else {
                format!("{start},{len}")
            }
        }
        format!(
            "@@ -{} +{} @@",
            range(self.old_start, self.old_len),
            range(self.new_start, self.new_len)
        )
    }
}

/// The line-by-line edit script from `old` to `new`.
pub(crate) fn diff_lines<'a>(old: &'a str, new: &'a str) -> Vec<DiffLine<'a>> {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let prefix = old
        .iter()
        .zip(&new)
        .take_while(|(old, new)| old == new)
        .count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(old, new)| old == new)
        .count();
    let old_middle = &old[prefix..old.len() - suffix];
    let new_middle = &new[prefix..new.len() - suffix];

    let mut script: Vec<DiffLine<'a>> = old[..prefix]
        .iter()
        .map(|line| DiffLine::Context(line))
        .collect();
    if old_middle.len().saturating_mul(new_middle.len()) <= TABLE_LIMIT {
        common_subsequence_script(old_middle, new_middle, &mut script);
    } else {
        script.extend(old_middle.iter().map(|line| DiffLine::Removed(line)));
        script.extend(new_middle.iter().map(|line| DiffLine::Added(line)));
    }
    script.extend(
        old[old.len() - suffix..]
            .iter()
            .map(|line| DiffLine::Context(line)),
    );
    script
}

/// Appends the script of `old` → `new` that keeps a longest common subsequence, removals before
/// additions within each change.
fn common_subsequence_script<'a>(old: &[&'a str], new: &[&'a str], script: &mut Vec<DiffLine<'a>>) {
    let width = new.len() + 1;
    // `table[i * width + j]`: the longest common subsequence of `old[i..]` and `new[j..]`.
    let mut table = vec![0_u32; (old.len() + 1) * width];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            table[i * width + j] = if old[i] == new[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        if old[i] == new[j] {
            script.push(DiffLine::Context(old[i]));
            i += 1;
            j += 1;
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
            script.push(DiffLine::Removed(old[i]));
            i += 1;
        } else {
            script.push(DiffLine::Added(new[j]));
            j += 1;
        }
    }
    script.extend(old[i..].iter().map(|line| DiffLine::Removed(line)));
    script.extend(new[j..].iter().map(|line| DiffLine::Added(line)));
}

/// The hunks of `old` → `new` with `context` unchanged lines around each change; changes closer
/// than twice the context share a hunk.
pub(crate) fn hunks<'a>(old: &'a str, new: &'a str, context: usize) -> Vec<Hunk<'a>> {
    let script = diff_lines(old, new);
    let changed: Vec<usize> = script
        .iter()
        .enumerate()
        .filter(|(_, line)| !matches!(line, DiffLine::Context(_)))
        .map(|(index, _)| index)
        .collect();
    let Some(&first) = changed.first() else {
        return Vec::new();
    };

    // Ranges of script indices, each a change run widened by its context.
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut start = first.saturating_sub(context);
    let mut end = first + 1;
    for &index in &changed[1..] {
        if index.saturating_sub(end) > 2 * context {
            ranges.push((start, (end + context).min(script.len())));
            start = index.saturating_sub(context);
        }
        end = index + 1;
    }
    ranges.push((start, (end + context).min(script.len())));

    // Line numbers before each script index.
    let mut old_seen = Vec::with_capacity(script.len() + 1);
    let mut new_seen = Vec::with_capacity(script.len() + 1);
    let (mut old_line, mut new_line) = (0, 0);
    for line in &script {
        old_seen.push(old_line);
        new_seen.push(new_line);
        match line {
            DiffLine::Context(_) => {
                old_line += 1;
                new_line += 1;
            }
            DiffLine::Removed(_) => old_line += 1,
            DiffLine::Added(_) => new_line += 1,
        }
    }
    old_seen.push(old_line);
    new_seen.push(new_line);

    ranges
        .into_iter()
        .map(|(start, end)| {
            let old_len = old_seen[end] - old_seen[start];
            let new_len = new_seen[end] - new_seen[start];
            Hunk {
                old_start: old_seen[start] + usize::from(old_len > 0),
                old_len,
                new_start: new_seen[start] + usize::from(new_len > 0),
                new_len,
                lines: script[start..end].to_vec(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{DiffLine, hunks};

    fn render(old: &str, new: &str, context: usize) -> Vec<String> {
        hunks(old, new, context)
            .iter()
            .flat_map(|hunk| {
                std::iter::once(hunk.header()).chain(hunk.lines.iter().map(|line| match line {
                    DiffLine::Context(text) => format!(" {text}"),
                    DiffLine::Removed(text) => format!("-{text}"),
                    DiffLine::Added(text) => format!("+{text}"),
                }))
            })
            .collect()
    }

    #[test]
    fn one_changed_line_keeps_its_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\n";
        let new = "a\nb\nc\nD\ne\nf\ng\n";
        assert_eq!(
            render(old, new, 2),
            ["@@ -2,5 +2,5 @@", " b", " c", "-d", "+D", " e", " f"]
        );
    }

    #[test]
    fn distant_changes_get_their_own_hunks_and_near_ones_share() {
        let old: String = (1..=20).map(|n| format!("line {n:02}\n")).collect();
        let new = old
            .replace("line 03", "three")
            .replace("line 18", "eighteen");
        assert_eq!(
            render(&old, &new, 1),
            [
                "@@ -2,3 +2,3 @@",
                " line 02",
                "-line 03",
                "+three",
                " line 04",
                "@@ -17,3 +17,3 @@",
                " line 17",
                "-line 18",
                "+eighteen",
                " line 19"
            ]
        );
        let near = old.replace("line 03", "three").replace("line 05", "five");
        assert_eq!(
            render(&old, &near, 1)
                .iter()
                .filter(|l| l.starts_with("@@"))
                .count(),
            1
        );
    }

    #[test]
    fn a_new_file_is_all_additions_and_an_emptied_one_all_removals() {
        assert_eq!(render("", "x\ny\n", 3), ["@@ -0,0 +1,2 @@", "+x", "+y"]);
        assert_eq!(render("x\n", "", 3), ["@@ -1 +0,0 @@", "-x"]);
    }

    #[test]
    fn insertions_keep_the_common_lines() {
        assert_eq!(
            render("a\nc\n", "a\nb\nc\n", 3),
            ["@@ -1,2 +1,3 @@", " a", "+b", " c"]
        );
    }

    #[test]
    fn identical_texts_have_no_hunks() {
        assert!(hunks("same\n", "same\n", 3).is_empty());
    }
}
